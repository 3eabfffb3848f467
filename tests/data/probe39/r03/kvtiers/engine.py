"""Engine-side construction of the GPU store and its host tier."""

from . import envcfg
from .gpu_blocks import BlockKVStore
from .host_tiers import create_host_tier

LLAMA3_8B = dict(num_layers=32, num_kv_heads=8, head_dim=128)


def init_kv_tiers(model=LLAMA3_8B, num_gpu_blocks=envcfg.GPU_BLOCKS,
                  num_host_blocks=envcfg.HOST_BLOCKS, kv_cache_dtype=None,
                  device="cuda", host_device="cpu"):
    geometry = dict(model, block_tokens=envcfg.BLOCK_TOKENS)
    gpu = BlockKVStore(num_blocks=num_gpu_blocks, cache_dtype=kv_cache_dtype,
                       device=device, **geometry)
    host = create_host_tier(envcfg.HOST_TIER, num_blocks=num_host_blocks,
                            device=host_device, **geometry)
    return gpu, host


class OffloadingAllocator:
    """Evicts cold prefix blocks to the host tier instead of dropping them."""

    def __init__(self, gpu, host):
        self.gpu = gpu
        self.host = host
        self.resident = {}

    def evict(self, prefix_hash):
        block = self.resident.pop(prefix_hash)
        self.host.put(prefix_hash, self.gpu, block)
        self.gpu.release([block])

    def fetch(self, prefix_hash):
        (block,) = self.gpu.allocate(1)
        self.host.get(prefix_hash, self.gpu, block)
        self.resident[prefix_hash] = block
        return block
