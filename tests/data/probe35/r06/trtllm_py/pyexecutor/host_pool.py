import torch

from trtllm_py.pyexecutor.resource_manager import KVCacheManager


class SecondaryBlockPool:
    """Host-memory block pool used when KV cache offloading is enabled."""

    def __init__(self, manager: KVCacheManager, host_cache_size: int, device="cpu"):
        self.num_local_layers = manager.num_local_layers
        self.tokens_per_block = manager.tokens_per_block
        self.bytes_per_token = KVCacheManager.get_cache_size_per_token(
            manager.num_kv_heads, manager.head_dim, manager.dtype)
        block_bytes = self.bytes_per_token * self.tokens_per_block * self.num_local_layers
        self.blocks_in_secondary_pool = host_cache_size // block_bytes
        pin = str(device) == "cpu" and torch.cuda.is_available()
        self.secondary_pool = torch.empty(
            (self.blocks_in_secondary_pool, self.num_local_layers, self.tokens_per_block,
             self.bytes_per_token),
            dtype=torch.int8, device=device, pin_memory=pin)

    @property
    def num_tokens(self) -> int:
        return self.blocks_in_secondary_pool * self.tokens_per_block
