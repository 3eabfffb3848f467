from dataclasses import dataclass
from typing import Tuple

import torch

from ..utils.import_utils import ATTENTION, BLOCK_SIZE


@dataclass
class KVScales:
    key_scale: torch.Tensor
    value_scale: torch.Tensor


class KVCache:
    """Key-value cache for one attention layer."""

    kv_cache: Tuple[torch.Tensor, torch.Tensor]

    def __init__(self, *, num_blocks: int, num_heads: int, head_size: int,
                 dtype: torch.dtype, device: torch.device):
        if dtype in {torch.float8_e5m2, torch.float8_e4m3fn} and ATTENTION == "flashdecoding":
            raise ValueError("FP8 KV cache is not supported with flashdecoding")
        self.dtype = dtype
        self.num_blocks = num_blocks
        if ATTENTION in {"flashdecoding", "flashinfer"}:
            self.kv_cache = (
                torch.empty((num_blocks, BLOCK_SIZE, num_heads, head_size),
                            dtype=dtype, device=device),
                torch.empty((num_blocks, BLOCK_SIZE, num_heads, head_size),
                            dtype=dtype, device=device),
            )
        else:
            # paged attention v2 layout: keys are split in 16-byte chunks
            x = 16 // torch.tensor([], dtype=dtype, device="meta").element_size()
            self.kv_cache = (
                torch.empty((num_blocks, num_heads, head_size // x, BLOCK_SIZE, x),
                            dtype=dtype, device=device),
                torch.empty((num_blocks, num_heads, head_size, BLOCK_SIZE),
                            dtype=dtype, device=device),
            )

    @property
    def key(self):
        return self.kv_cache[0]

    @property
    def value(self):
        return self.kv_cache[1]

    def store(self, *, key, value, slots, kv_scales: KVScales):
        raise NotImplementedError("kernel path only")
