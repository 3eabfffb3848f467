from common import setup, bpt, compare
setup("r03")
from vllm_fork.worker.setup import build_caches

eng, swap = build_caches(device="meta")
assert swap._arena.is_meta
swap_tokens = swap.num_blocks * swap.block_size
compare("r03", {
    "kv_cache": (bpt([(t, swap_tokens, 1) for t in swap.kv_cache] + [(swap._arena, swap_tokens, swap.num_layers)]),
                 bpt([(t, eng.num_gpu_blocks * eng.block_size, 1) for t in eng.kv_cache])),
})
