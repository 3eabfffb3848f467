import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare

setup("r01")
from text_gen_server.cache_manager import build_cache

cache, swap = build_cache(device="meta")
assert cache.kv_cache[0].device.type == "meta"
dev = bpt((t, t.shape[1] * t.shape[2], 1) for t in cache.kv_cache)
host = bpt((t, t.shape[0] * swap.block_size, 1) for t in swap.kv_cache)
assert len(cache.kv_cache) == len(swap.kv_cache)
compare("r01", {"kv_cache": (host, dev)})
