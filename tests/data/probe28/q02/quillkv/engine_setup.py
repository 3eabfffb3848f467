from typing import Optional

from .spec import CacheSpec
from .layer_cache import Fp8LayerCache
from .spill import SpillRegion


def init_kv_storage(
    spec: Optional[CacheSpec] = None,
    gpu_blocks: int = 128,
    cpu_blocks: int = 512,
    device: str = "cuda",
    spill_device: str = "cpu",
):
    spec = spec if spec is not None else CacheSpec()
    cache = Fp8LayerCache(spec, gpu_blocks, device=device)
    spill = SpillRegion(spec, cpu_blocks, device=spill_device)
    return cache, spill
