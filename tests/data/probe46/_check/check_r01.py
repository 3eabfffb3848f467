import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from tidepool.controller import build_hicache

hf = SimpleNamespace(
    architectures=["LlamaForCausalLM"], hidden_size=4096, num_attention_heads=32,
    num_key_value_heads=8, num_hidden_layers=32, torch_dtype="bfloat16",
)
server = SimpleNamespace(tp_size=2, pp_rank=1, pp_size=2, max_total_tokens=300000,
                         kv_cache_dtype="auto", hicache_ratio=2.0,
                         device="meta", host_device="meta")
dev, host = build_hicache(hf, server)
g = dev.k_cache[16].shape[0]
h = host.capacity
measured = {}
for attr in ("k_cache", "v_cache"):
    d, o = getattr(dev, attr), getattr(host, attr)
    assert sorted(d) == sorted(o) == list(range(16, 32))
    vals = {(per_token(o[l], h), per_token(d[l], g)) for l in d}
    assert len(vals) == 1, vals
    measured[attr] = vals.pop()
verify("r01", dev, host, build_hicache, measured)
