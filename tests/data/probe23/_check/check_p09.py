import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p09")
from kvstore.node import KVNode

n = KVNode(device="meta", tier_device="meta")
sh, sp = n.shelf, n.tiers["spill"]
assert sh.depth == sp.depth == 42
m = {}
for name in ("k_pages", "v_pages"):
    m[name] = (_util.per_token_per_layer(getattr(sp, name), sp.slots, sp.depth),
               _util.per_token_per_layer(getattr(sh, name), sh.slots, sh.depth))
assert sp.k_pages.nbytes + sp.v_pages.nbytes == sp.region.nbytes
_util.verify("p09", m)
print("OK")
