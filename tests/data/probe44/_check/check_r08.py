import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from harborserve.defaults import load_config
from harborserve.cache_engine import init_cache_engine

gpu, swap = init_cache_engine(load_config(device="meta", swap_device="meta"))
g = gpu.kv_cache.shape[2]
h = swap.buffer.shape[0]
measured = {"kv_cache": (per_token(swap.buffer, h), per_token(gpu.kv_cache, g))}
verify("r08", gpu, swap, init_cache_engine, measured)
