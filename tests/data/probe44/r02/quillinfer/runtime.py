from .settings import Settings
from .gpu_pool import QuantKVPool
from .cpu_pool import HostSpillPool


def make_cache(settings=None):
    s = settings or Settings()
    gpu = QuantKVPool(s)
    cpu = HostSpillPool(s)
    return gpu, cpu
