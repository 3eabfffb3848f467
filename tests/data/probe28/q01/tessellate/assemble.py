from typing import Optional

import torch

from .geometry import AttnGeometry
from .device_pool import PagedKVPool
from .host_arena import HostStagingArena


def assemble_kv(
    geom: Optional[AttnGeometry] = None,
    device_pages: int = 64,
    host_pages: int = 32,
    device: str = "cuda",
    host_device: str = "cpu",
):
    geom = geom or AttnGeometry()
    pool = PagedKVPool(geom, device_pages, device=device)
    arena = HostStagingArena(geom, host_pages, device=host_device, pin=host_device == "cpu" and torch.cuda.is_available())
    return pool, arena
