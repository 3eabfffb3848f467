"""Paged KV cache, one object per attention layer."""
import torch

BLOCK_SIZE: int = 16


class KVCache:
    """Key/value cache for a single layer (paged-attention v1 layout).

    key_cache:   [num_blocks, num_heads, head_size // x, BLOCK_SIZE, x], x packs 16 bytes
    value_cache: [num_blocks, num_heads, head_size, BLOCK_SIZE]
    """

    def __init__(self, *, num_blocks: int, num_heads: int, head_size: int,
                 dtype: torch.dtype, device):
        x = BLOCK_SIZE // dtype.itemsize
        self.num_blocks = num_blocks
        self.key_cache = torch.empty((num_blocks, num_heads, head_size // x, BLOCK_SIZE, x),
                                     dtype=dtype, device=device)
        self.value_cache = torch.empty((num_blocks, num_heads, head_size, BLOCK_SIZE),
                                       dtype=dtype, device=device)

    @property
    def dtype(self) -> torch.dtype:
        return self.key_cache.dtype

    @property
    def num_slots(self) -> int:
        return self.num_blocks * BLOCK_SIZE

    def store(self, key: torch.Tensor, value: torch.Tensor, slots: torch.Tensor) -> None:
        """Scatter new key/value rows into their slots (reference path, not the kernel)."""
        blocks, offsets = slots // BLOCK_SIZE, slots % BLOCK_SIZE
        x = self.key_cache.shape[-1]
        k = key.view(key.shape[0], key.shape[1], -1, x)
        self.key_cache[blocks, :, :, offsets, :] = k.to(self.dtype)
        self.value_cache[blocks, :, :, offsets] = value.to(self.dtype)
