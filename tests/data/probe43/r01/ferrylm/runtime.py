from .config import CacheSettings
from .cpu_cache import PinnedKVShadow
from .gpu_cache import StackedKVCache


def make_cache_pair(settings: CacheSettings = None):
    settings = settings or CacheSettings()
    gpu = StackedKVCache(settings)
    host = PinnedKVShadow.mirror_of(gpu, settings.host_ratio, where=settings.cpu)
    return gpu, host


class OffloadRuntime:
    def __init__(self, settings: CacheSettings):
        self.gpu, self.host = make_cache_pair(settings)

    def evict(self, layer, src, dst):
        self.host.copy_in(layer, src, dst, self.gpu)
