import torch

from .configs import BlockCacheConfig, ModelShape, kv_torch_dtype


class BlockKVCache:
    """[2, layers, blocks, block_size, heads, head_size] in one allocation."""

    def __init__(self, cache_cfg: BlockCacheConfig, model: ModelShape, device: str):
        self.cache_cfg = cache_cfg
        self.model = model
        self.dtype = kv_torch_dtype(cache_cfg.cache_dtype, model)
        self.kv_blocks = torch.empty(self.kv_shape, dtype=self.dtype, device=device)

    @property
    def kv_shape(self):
        c, m = self.cache_cfg, self.model
        return (2, m.layers, c.gpu_blocks, c.block_size, m.kv_heads, m.head_size)

    @property
    def num_token_slots(self) -> int:
        return self.cache_cfg.gpu_blocks * self.cache_cfg.block_size

    def block(self, layer: int, block_id: int):
        return self.kv_blocks[:, layer, block_id]
