from common import setup, bpt, compare

setup("r02")
from blockcache.worker import init_cache_engine

engine = init_cache_engine(device="meta")
dev, swap = engine.gpu, engine.swap
compare("r02", {
    "kv_cache": (
        bpt([(t, swap.num_blocks * swap.block_size, 1) for t in swap.cpu_cache]),
        bpt([(t, dev.num_blocks * dev.block_size, 1) for t in dev.layer_caches()]),
    ),
})
