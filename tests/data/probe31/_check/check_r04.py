import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare

setup("r04")
from mla_serving.model_runner import init_memory_pool

pool, host = init_memory_pool(device="meta")
assert pool.kv_buffer[0].device.type == "meta"
dev = bpt((t, t.shape[0], 1) for t in pool.kv_buffer)
h = host.kv_buffer
hst = bpt([(h, h.shape[1], h.shape[0])])
compare("r04", {"kv_buffer": (hst, dev)})
