"""r07: build both pools on meta with the default config and compare bytes per token."""
from common import add_tree, per_token, verify

add_tree("r07")
from lattice.config import CacheConfig, LatticeConfig
from lattice.scheduler import Scheduler

sched = Scheduler(LatticeConfig(cache=CacheConfig(device="meta", swap_device="meta")))
pool, swap = sched.setup_memory()
dev_slots = (pool.num_pages + 1) * pool.page_size
host_slots = swap.num_pages * swap.page_size
measured = {"kv_buffer": (per_token(swap.kv_buffer, host_slots), per_token(pool.kv_buffer, dev_slots))}
verify("r07", pool, swap, Scheduler.setup_memory, measured)
