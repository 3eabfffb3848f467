import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare, assert_device

setup("r04")
from pdserve.bootstrap import init_memory_pool

pool, xfer = init_memory_pool(device="meta")
assert_device([pool.kv_data, pool.kv_scales, xfer.kv_data, xfer.kv_scales], "meta")
assert (pool.start_layer, pool.end_layer) == (xfer.start_layer, xfer.end_layer) == (23, 30)
d_tok = pool.num_pages * pool.page_size
x_tok = xfer.num_slots * xfer.page_size
measured = {}
for name in ("kv_data", "kv_scales"):
    measured[name] = (bpt([(getattr(xfer, name), x_tok, xfer.num_layers)]),
                      bpt([(getattr(pool, name), d_tok, pool.num_local_layers)]))
# exercise the per-layer view on meta
assert pool.layer_view(25).shape == (pool.num_pages, pool.page_size, 2, 8, 128)
compare("r04", measured)
