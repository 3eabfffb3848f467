from common import setup, bpt, compare
setup("r01")
from vllm_lite.worker.worker import build_cache_engine
eng = build_cache_engine(device="meta")
dev, swap = eng.gpu_cache, eng.cpu_cache
compare("r01", {
    "kv_cache": (bpt([(t, swap.num_blocks * swap.block_size, 1) for t in swap.kv_caches]),
                 bpt([(t, dev.num_blocks * dev.block_size, 1) for t in dev.kv_caches])),
})
