from .offload import Int8OffloadStore
from .paged import Int8BlockCache
from .settings import KVQuantSettings


def build_cache_pair(settings=None):
    settings = settings or KVQuantSettings()
    if settings.head_dim % settings.group_size:
        raise ValueError("head_dim must be a multiple of group_size")
    return Int8BlockCache(settings), Int8OffloadStore(settings)
