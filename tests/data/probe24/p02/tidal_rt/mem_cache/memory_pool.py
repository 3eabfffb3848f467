from typing import List

import torch

# The NSA indexer quantises its keys to fp8 in blocks of this many channels and
# stores one fp32 scale per block right after the page's fp8 payload.
INDEX_K_QUANT_BLOCK = 128


def index_k_bytes_per_token(index_head_dim: int) -> int:
    num_scales = index_head_dim // INDEX_K_QUANT_BLOCK
    return index_head_dim * 1 + num_scales * 4


class MLATokenToKVPool:
    """Device pool holding the compressed latent KV (c_kv ++ k_rope) per token."""

    def __init__(self, size: int, page_size: int, dtype: torch.dtype,
                 kv_lora_rank: int, qk_rope_head_dim: int, layer_num: int,
                 index_head_dim: int, device: str) -> None:
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        # fp8 is kept as uint8 because index_put on fp8 is not supported.
        self.store_dtype = torch.uint8 if dtype.itemsize == 1 else dtype
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.kv_cache_dim = kv_lora_rank + qk_rope_head_dim
        self.layer_num = layer_num
        self.index_head_dim = index_head_dim
        self.device = device

        # slot 0..page_size-1 is a padding page used for dummy writes
        num_slots = size + page_size
        self.kv_buffer: List[torch.Tensor] = [
            torch.zeros((num_slots, 1, self.kv_cache_dim), dtype=self.store_dtype,
                        device=device)
            for _ in range(layer_num)
        ]
        num_pages = num_slots // page_size
        self.index_k_with_scale_buffer: List[torch.Tensor] = [
            torch.zeros((num_pages, page_size * index_k_bytes_per_token(index_head_dim)),
                        dtype=torch.uint8, device=device)
            for _ in range(layer_num)
        ]

    @property
    def num_slots(self) -> int:
        return self.size + self.page_size

    def get_key_buffer(self, layer_id: int) -> torch.Tensor:
        return self.kv_buffer[layer_id]
