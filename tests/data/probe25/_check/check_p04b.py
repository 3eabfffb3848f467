"""p04b (a buggy variant of p04, written for the auditor's tests): the swap space's V blocks
take the K block shape, built through the tree's own build_cache_engines on the meta device."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "p04b"))

from _util import bptl  # noqa: E402
from turbinelm.engine import build_cache_engines  # noqa: E402

gpu, swap = build_cache_engines(device="meta", swap_device="meta")
assert "p04b" in sys.modules[type(swap).__module__].__file__
names = {"k_caches": "host_k", "v_caches": "host_v",
         "k_scales_zeros": "host_k_sz", "v_scales_zeros": "host_v_sz"}
figures = {
    name: (
        bptl(getattr(swap, other), swap.num_blocks * swap.block_size, swap.num_layers),
        bptl(getattr(gpu, name), gpu.num_blocks * gpu.block_size, gpu.num_layers),
    )
    for name, other in names.items()
}
assert figures == {
    "k_caches": (384, 384),
    "v_caches": (384, 256),
    "k_scales_zeros": (16, 16),
    "v_scales_zeros": (16, 16),
}, figures
print("OK")
