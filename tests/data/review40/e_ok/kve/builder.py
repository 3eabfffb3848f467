import torch

from kve.arch import HybridArch
from kve.memory_pool import HybridTokenToKVPool
from kve.memory_pool_host import HybridTokenToKVPoolHost


def build(arch: HybridArch, size: int):
    pool = HybridTokenToKVPool(size, 1, torch.bfloat16, arch, "cuda")
    host = HybridTokenToKVPoolHost(pool, size=size * 2, page_size=1)
    return pool, host
