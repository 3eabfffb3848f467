import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p03"))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _util import bptl
from trtkv.manager import KVCacheManager
from trtkv.params import default_params

p = default_params()
m = KVCacheManager(secondary_bytes=4 << 20, device="meta")
L = len(p.layer_ids)
d = bptl(m.primary.kv_pool, m.primary.max_blocks * p.tokens_per_block, L)
h = bptl(m.secondary.kv_pool, m.secondary.max_blocks * p.tokens_per_block, L)
print("kv_pool host", h, "device", d)
assert h == d == 1024
print("OK p03")
