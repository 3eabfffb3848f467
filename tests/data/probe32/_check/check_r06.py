from common import setup, bpt, compare

setup("r06")
from v0fork.worker.worker import init_cache_engine

dev, swap = init_cache_engine(device="meta", swap_device="meta")
assert len(dev.kv_caches) == dev.num_attention_layers == len(swap.kv_caches) == 16
td, ts = dev.num_gpu_blocks * dev.block_size, swap.num_cpu_blocks * swap.block_size
measured = {
    "kv_caches": (
        bpt([(t, ts, 1) for t in swap.kv_caches.values()]),
        bpt([(t, td, 1) for t in dev.kv_caches]),
    )
}
compare("r06", measured)
