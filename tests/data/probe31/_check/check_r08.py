import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare

setup("r08")
from mlc_serve.engine import create_kv_state

cache, staging = create_kv_state(device="meta")
assert cache.kv_data[0].device.type == "meta"
ps = cache.page_size
measured = {}
for name in ("kv_data", "kv_scales"):
    dev = bpt((t, t.shape[0] * ps, 1) for t in getattr(cache, name))
    s = getattr(staging, name)
    stg = bpt([(s, s.shape[1], s.shape[0])])
    measured[name] = (stg, dev)
compare("r08", measured)
