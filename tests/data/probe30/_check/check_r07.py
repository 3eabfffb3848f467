import os

os.environ.pop("SWAPKV_CACHE_DTYPE", None)
from _common import use_tree, bptl, expect

use_tree("r07")
from swapkv.worker import init_cache_engine

dev, host = init_cache_engine(device="meta")
L = dev.num_layers
assert host.num_layers == L == len(dev.key_cache) == len(host.key_cache)
for name, (h, d) in {"key_cache": (1024, 2048), "value_cache": (1024, 2048)}.items():
    expect(f"dev {name}", bptl(getattr(dev, name), dev.num_slots, L), d)
    expect(f"host {name}", bptl(getattr(host, name), host.num_slots, L), h)
print("OK")
