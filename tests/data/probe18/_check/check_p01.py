import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p01"))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _util import bptl
from kvpager import build_cache, CacheSpec

spec = CacheSpec()
store, swap = build_cache(spec, gpu_bytes=1 << 40, swap_bytes=spec.bytes_per_block() * 3, device="meta")
L = spec.num_layers
dt = store.num_blocks * spec.block_size
ht = swap.num_cpu_blocks * spec.block_size
for name in ("key_blocks", "value_blocks"):
    d = bptl(getattr(store, name), dt, L)
    h = bptl(getattr(swap, name), ht, L)
    print(name, "host", h, "device", d)
    assert d == h == 2048
print("OK p01")
