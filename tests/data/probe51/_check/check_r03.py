import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from sedge.factory import create_pools

cfg = {
    "architectures": ["JambaForCausalLM"], "model_type": "jamba",
    "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
    "num_hidden_layers": 32, "attn_layer_period": 8, "attn_layer_offset": 4,
    "expert_layer_period": 2, "expert_layer_offset": 1, "num_experts": 16,
    "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_dt_rank": 256,
    "intermediate_size": 14336, "torch_dtype": "bfloat16",
}
opts = SimpleNamespace(tp_size=2, kv_cache_dtype="fp8_e5m2", max_total_tokens=1_000_000,
                       max_running_requests=128, host_ratio=3.0, page_size=32)
dev, host = create_pools(cfg, opts, device="meta", host_device="meta")
assert sorted(dev.k_cache) == sorted(host.k_cache) == [4, 12, 20, 28]
measured = {}
for a in ("k_cache", "v_cache"):
    d, o = getattr(dev, a)[12], getattr(host, a)[12]
    measured[a] = (per_token(o, o.shape[0] * o.shape[1]), per_token(d, d.shape[0]))
verify("r03", dev, host, create_pools, measured)
