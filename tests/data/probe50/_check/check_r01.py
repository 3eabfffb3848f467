import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from gullkv.tiers import make_hierarchical_cache

dev, host = make_hierarchical_cache(kv_cache_dtype="fp8_e4m3", max_tokens=300_000,
                                    host_gib=48, device="meta", host_device="meta")
assert len(dev.k_buffer) == len(host.k_rows) == 32
measured = {}
for a, h in (("k_buffer", "k_rows"), ("v_buffer", "v_rows"),
             ("k_scale", "k_scale_rows"), ("v_scale", "v_scale_rows")):
    d, o = getattr(dev, a)[0], getattr(host, h)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r01", dev, host, make_hierarchical_cache, measured)
