from common import setup, bpt, compare

setup("r05")
from rowkv.bootstrap import create_pools

dev, swap = create_pools(device="meta")
assert len(dev.k_rows) == dev.depth and len(swap.k_rows) == swap.depth
compare("r05", {
    name: (
        bpt([(t, swap.num_rows, 1) for t in getattr(swap, name)]),
        bpt([(t, dev.num_rows + 1, 1) for t in getattr(dev, name)]),
    )
    for name in ("k_rows", "v_rows")
})
