import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare

setup("r06")
from swa_research.factory import make_caches

cache, spill = make_caches(device="meta")
assert cache.cache_kv[0].device.type == "meta"
assert len(set(cache.capacities)) > 1
dev = bpt((t, t.shape[0] * t.shape[1], 1) for t in cache._cache_kv)
spl = bpt((t, t.shape[0], 1) for t in spill._cache_kv)
compare("r06", {"_cache_kv": (spl, dev)})
