import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p02")
from relay.serve import build_disagg_pair

pre, dec, _, _ = build_disagg_pair(prefill_device="meta", decode_device="meta")
L = pre.layout
dt = L.num_blocks * L.block_size
mt = dec.num_blocks * dec.block_size
assert len(pre.k_cache) == len(dec.k_cache) == 27
m = {}
for name in ("k_cache", "v_cache"):
    d = _util.per_token_per_layer(getattr(pre, name), dt, L.num_layers)
    h = _util.per_token_per_layer(getattr(dec, name), mt, dec.num_layers)
    m[name] = (h, d)
_util.verify("p02", m)
print("OK")
