from typing import Optional

from .layout import KVLayout
from .device_cache import DeviceKVCache
from .offload import HostOffloadMirror


def create_cache_pair(
    layout: Optional[KVLayout] = None,
    *,
    device: str = "cuda",
    host_device: str = "cpu",
    max_blocks: int = 256,
    host_blocks: int = 1024,
):
    layout = layout or KVLayout()
    gpu = DeviceKVCache(layout, max_blocks, device=device)
    host = HostOffloadMirror(layout, host_blocks, device=host_device)
    return gpu, host
