import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare, assert_device

setup("r06")
from hicache.scheduler_init import init_memory_pool

dev, host = init_memory_pool(device="meta")
assert_device(dev.kv_buffer + dev.index_k_with_scale_buffer + [host.kv_buffer, host.index_k_with_scale_buffer], "meta")
assert len(dev.kv_buffer) == len(dev.index_k_with_scale_buffer) == dev.layer_num == host.layer_num
d_tok = dev.size + dev.page_size
h_tok = host.page_num * host.page_size
measured = {}
for name in ("kv_buffer", "index_k_with_scale_buffer"):
    measured[name] = (bpt([(getattr(host, name), h_tok, host.layer_num)]),
                      bpt((t, d_tok, 1) for t in getattr(dev, name)))
compare("r06", measured)
