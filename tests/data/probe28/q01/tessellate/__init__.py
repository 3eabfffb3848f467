from .geometry import AttnGeometry
from .device_pool import PagedKVPool
from .host_arena import HostStagingArena
from .assemble import assemble_kv

__all__ = ["AttnGeometry", "PagedKVPool", "HostStagingArena", "assemble_kv"]
