"""CPU block store for the offloading connector, with LRU eviction of stored blocks."""

from collections import OrderedDict

import torch

from .config import CacheConfig, ModelConfig


class CPUBlockStore:
    def __init__(self, model_config: ModelConfig, cache_config: CacheConfig, device="cpu"):
        self.num_layers = model_config.num_layers
        self.num_blocks = cache_config.num_cpu_blocks
        self.block_size = cache_config.block_size
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        shape = (2, self.num_blocks, self.block_size, model_config.num_kv_heads, model_config.head_size)
        self.kv_caches = [
            torch.empty(shape, dtype=model_config.dtype, device=device, pin_memory=pin)
            for _ in range(self.num_layers)
        ]
        self.block_map = OrderedDict()  # block hash -> cpu block id
        self.free_ids = list(range(self.num_blocks))

    def _take_block(self):
        if self.free_ids:
            return self.free_ids.pop()
        _, block_id = self.block_map.popitem(last=False)
        return block_id

    def store(self, gpu_cache, block_hashes, gpu_block_ids):
        """Copy the given GPU blocks into CPU blocks, keyed by block hash."""
        cpu_ids = [self._take_block() for _ in block_hashes]
        src = torch.as_tensor(gpu_block_ids, device=gpu_cache.kv_caches[0].device)
        dst = torch.as_tensor(cpu_ids, device=self.kv_caches[0].device)
        for gpu_layer, cpu_layer in zip(gpu_cache.kv_caches, self.kv_caches):
            cpu_layer.index_copy_(1, dst, gpu_layer.index_select(1, src).to(cpu_layer.device))
        self.block_map.update(zip(block_hashes, cpu_ids))

    def load(self, gpu_cache, block_hashes, gpu_block_ids):
        src = torch.as_tensor([self.block_map[h] for h in block_hashes], device=self.kv_caches[0].device)
        dst = torch.as_tensor(gpu_block_ids, device=gpu_cache.kv_caches[0].device)
        for gpu_layer, cpu_layer in zip(gpu_cache.kv_caches, self.kv_caches):
            gpu_layer.index_copy_(1, dst, cpu_layer.index_select(1, src).to(gpu_layer.device))
        for h in block_hashes:
            self.block_map.move_to_end(h)
