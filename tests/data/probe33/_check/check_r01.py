import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare, assert_device

setup("r01")
from hfserve.engine import build_caches

dev, host = build_caches(device="meta")
assert_device(dev.key_cache + host.key_cache, "meta")
d_tok = dev.max_batch_size * dev.max_cache_len
h_tok = host.key_cache[0].shape[0] * host.key_cache[0].shape[2]
measured = {}
for name in ("key_cache", "value_cache"):
    d = bpt((t, d_tok, 1) for t in getattr(dev, name))
    h = bpt((t, h_tok, 1) for t in getattr(host, name))
    assert len(getattr(dev, name)) == len(getattr(host, name)) == dev.num_layers
    measured[name] = (h, d)
compare("r01", measured)
