from common import setup, bpt, compare

setup("r08")
from disagg.bootstrap import build_disagg_pools

dev, buf = build_disagg_pools(device="meta", transfer_device="meta")
n_local = len(dev.layers)
assert n_local == len(buf.layers) == 12
td = dev.num_pages * dev.page_size
measured = {}
for name in ("k_pages", "v_pages", "index_k_pages"):
    measured[name] = (
        bpt([(getattr(buf, name), buf.num_slots, n_local)]),
        bpt([(t, td, 1) for t in getattr(dev, name)]),
    )
total = sum(getattr(buf, n).nbytes for n in measured)
assert total == buf.arena.nbytes
compare("r08", measured)
