from typing import Tuple

import torch

BLOCK_SIZE = 16
ATTENTION = "paged"


class KVCache:
    """Key/value cache for a single attention layer."""

    kv_cache: Tuple[torch.Tensor, torch.Tensor]

    def __init__(self, *, num_blocks: int, num_heads: int, head_size: int,
                 dtype: torch.dtype, device):
        self.num_blocks = num_blocks
        self.dtype = dtype
        element_size = torch.tensor([], dtype=dtype).element_size()
        x = BLOCK_SIZE // element_size
        if ATTENTION in {"flashdecoding", "flashinfer"}:
            self.kv_cache = (
                torch.empty((num_blocks, BLOCK_SIZE, num_heads, head_size), dtype=dtype, device=device),
                torch.empty((num_blocks, BLOCK_SIZE, num_heads, head_size), dtype=dtype, device=device),
            )
        else:
            self.kv_cache = (
                torch.zeros((num_blocks, num_heads, head_size // x, BLOCK_SIZE, x), dtype=dtype, device=device),
                torch.zeros((num_blocks, num_heads, head_size, BLOCK_SIZE), dtype=dtype, device=device),
            )

    @property
    def key(self) -> torch.Tensor:
        return self.kv_cache[0]

    @property
    def value(self) -> torch.Tensor:
        return self.kv_cache[1]
