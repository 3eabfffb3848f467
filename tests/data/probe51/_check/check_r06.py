import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from wren_serve.cache_manager import build_hierarchy

hf = {
    "architectures": ["DeepseekV2ForCausalLM"], "model_type": "deepseek_v2",
    "hidden_size": 2048, "num_attention_heads": 16, "num_key_value_heads": 16,
    "num_hidden_layers": 27, "kv_lora_rank": 512, "q_lora_rank": None,
    "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
    "n_routed_experts": 64, "num_experts_per_tok": 6, "torch_dtype": "bfloat16",
}
args = SimpleNamespace(tp_size=2, kv_cache_dtype="auto", max_total_tokens=250_000,
                       hicache_ratio=2.0, page_size=64)
dev, host = build_hierarchy(hf, args, device="meta", host_device="meta")
assert len(dev.key_buffer) == host.key_buffer.shape[0] == 27
measured = {}
for a in ("key_buffer", "value_buffer"):
    d, o = getattr(dev, a)[0], getattr(host, a)
    measured[a] = (per_token(o, o.shape[0] * o.shape[1]), per_token(d, d.shape[0]))
verify("r06", dev, host, build_hierarchy, measured)
