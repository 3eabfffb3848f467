"""p09f (the fixed form of p09, written for the auditor's tests): the spill buffer reads the
KV dtype under the key the launcher sets, so its pages hold as many bytes per token per layer
as the device's, built through the tree's own warmup_and_allocate on the meta device."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "p09f"))

from _util import bptl  # noqa: E402
from tgilite.warmup import warmup_and_allocate  # noqa: E402

cache, spill = warmup_and_allocate(device="meta", spill_device="meta")
assert "p09f" in sys.modules[type(spill).__module__].__file__
figures = {
    name: (
        bptl(getattr(spill, other), spill.num_pages * spill.page_size, spill.num_layers),
        bptl(getattr(cache, name), cache.num_pages * cache.page_size, cache.num_layers),
    )
    for name, other in {"kv_data": "page_bufs", "kv_scales": "scale_bufs"}.items()
}
assert figures == {"kv_data": (2048, 2048), "kv_scales": (64, 64)}, figures
print("OK")
