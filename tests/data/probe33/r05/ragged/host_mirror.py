"""Host mirror of the blocked KV cache, used to evict idle sequences without recomputation."""

import torch

from .config import KVCacheConfig


class HostKVMirror:
    def __init__(self, config: KVCacheConfig, gpu_cache, num_blocks: int, device="cpu"):
        self.gpu_cache = gpu_cache
        self.num_layers = config.num_layers
        self.num_blocks = num_blocks
        self.block_size = config.block_size
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.caches = torch.empty(
            (config.num_layers, num_blocks, config.block_size, 2, config.num_kv_heads, config.head_size),
            dtype=config.cache_dtype,
            device=device,
            pin_memory=pin,
        )
        self.free_host_blocks = list(range(num_blocks))

    def evict(self, gpu_blocks: torch.Tensor) -> list:
        host_blocks = [self.free_host_blocks.pop() for _ in range(gpu_blocks.numel())]
        dst = torch.tensor(host_blocks, device=self.caches.device)
        src = gpu_blocks.to(self.gpu_cache.caches.device, dtype=torch.long)
        self.caches.index_copy_(1, dst, self.gpu_cache.caches.index_select(1, src).to(self.caches.device))
        return host_blocks

    def restore(self, host_blocks: list, gpu_blocks: torch.Tensor) -> None:
        src = torch.tensor(host_blocks, device=self.caches.device)
        dst = gpu_blocks.to(self.gpu_cache.caches.device, dtype=torch.long)
        self.gpu_cache.caches.index_copy_(1, dst, self.caches.index_select(1, src).to(dst.device))
        self.free_host_blocks.extend(host_blocks)
