import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare

setup("r02")
from lightserve.server.router_init import init_kv_memory
from lightserve.common.int8kv_mem_manager import INT8KVMemoryManager

mm, tb = init_kv_memory(device="meta")
assert isinstance(mm, INT8KVMemoryManager)
assert mm.kv_buffer.device.type == "meta"
measured = {}
for name in ("kv_buffer", "scale_buffer"):
    d = getattr(mm, name)
    h = getattr(tb, name)
    dev = bpt([(d, d.shape[1], d.shape[0])])
    host = bpt([(h, h.shape[1], h.shape[0])])
    measured[name] = (host, dev)
compare("r02", measured)
