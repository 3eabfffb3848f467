from .device import PagedFp8KVPool
from .host import HostPageMirror

__all__ = ["PagedFp8KVPool", "HostPageMirror"]
