import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from osprey_rt.serve import bring_up

hf = {
    "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3",
    "hidden_size": 5120, "intermediate_size": 25600, "num_attention_heads": 64,
    "num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 64,
    "max_position_embeddings": 40960, "rope_theta": 1000000.0, "torch_dtype": "bfloat16",
}
opts = SimpleNamespace(tp_size=2, kv_cache_dtype="nvfp4", kv_budget_gib=40, host_multiplier=4)
dev, host = bring_up(hf, opts, device="meta", host_device="meta")
assert dev.kv_data.shape[0] == host.kv_data.shape[0] == 64
measured = {}
for a in ("kv_data", "kv_scales"):
    d, o = getattr(dev, a), getattr(host, a)
    measured[a] = (per_token(o, o.shape[0] * o.shape[2]), per_token(d, d.shape[0] * d.shape[2]))
verify("r08", dev, host, bring_up, measured)
