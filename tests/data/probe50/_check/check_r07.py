import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from tern_kv.serve import bring_up_kv

model = {
    "architectures": ["LlamaForCausalLM"], "hidden_size": 7168, "num_attention_heads": 56,
    "num_key_value_heads": 8, "num_hidden_layers": 60, "intermediate_size": 20480,
    "torch_dtype": "bfloat16",
}
serving = {"kv_quant": "int8_g64_asym", "tp": 2, "gpu_tokens": 180_000, "offload_gib": 64}
dev, tier = bring_up_kv(model, serving, device="meta", offload_device="meta")
measured = {}
for a, h in (("kv_codes", "codes"), ("kv_qparams", "params")):
    d, o = getattr(dev, a), getattr(tier, h)
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[2]))
verify("r07", dev, tier, bring_up_kv, measured)
