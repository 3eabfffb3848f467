import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare

setup("r07")
from jaxport_serve.replica import build_stage_caches

pages, host = build_stage_caches(device="meta")
assert pages.k_pages[0].device.type == "meta"
assert len(pages.k_pages) == pages.end_layer - pages.start_layer == len(host.v_pages)
measured = {}
for name in ("k_pages", "v_pages"):
    dev = bpt((t, t.shape[0] * t.shape[1], 1) for t in getattr(pages, name))
    hst = bpt((t, t.shape[0] * t.shape[1], 1) for t in getattr(host, name))
    measured[name] = (hst, dev)
compare("r07", measured)
