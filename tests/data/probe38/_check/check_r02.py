import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from aphro_lite.worker import init_cache_engine

gpu, swap = init_cache_engine(device="meta", swap_device="meta")
# per-layer (2, num_blocks, block_size, heads, dim): slots = num_blocks * block_size
g = gpu.kv_caches[0].shape
s = swap.cpu_caches[0].shape
measured = {
    "kv_caches": (per_token(swap.cpu_caches, s[1] * s[2]),
                  per_token(gpu.kv_caches, g[1] * g[2])),
}
verify("r02", gpu, swap, init_cache_engine, measured)
