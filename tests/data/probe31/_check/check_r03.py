import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare

setup("r03")
from fastgen_serve.engine_factory import build_engine_caches

target, draft = build_engine_caches(device="meta")
assert target._caches[0].device.type == "meta"
dev = bpt((t, t.shape[1] * t.shape[2], t.shape[0]) for t in target._caches)
drf = bpt((t, t.shape[1] * t.shape[2], t.shape[0]) for t in draft._caches)
compare("r03", {"_caches": (drf, dev)})
