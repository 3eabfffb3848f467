import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare

setup("r05")
from aphro_engine.task_handler.cache_init import init_cache_engine

gpu, cpu = init_cache_engine(device="meta")
assert gpu.kv_cache[0].device.type == "meta"
dev = bpt((t, t.shape[1] * t.shape[2], 1) for t in gpu.kv_cache)
hst = bpt((t, t.shape[1] * t.shape[2], 1) for t in cpu.kv_cache)
compare("r05", {"kv_cache": (hst, dev)})
