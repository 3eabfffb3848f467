import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _util import run, bptl

DISK_ATTR = {"kv_data": "page_bufs", "kv_scales": "scale_bufs"}


def build(warmup_and_allocate):
    cache, spill = warmup_and_allocate(device="meta", spill_device="meta")
    out = {}
    for name, sname in DISK_ATTR.items():
        out[name] = (
            bptl(getattr(spill, sname), spill.num_pages * spill.page_size, spill.num_layers),
            bptl(getattr(cache, name), cache.num_pages * cache.page_size, cache.num_layers),
        )
    return cache, spill, out


run("p09", build)
