"""Token-to-KV pool for MLA with FP8 latent (FlashMLA fp8 layout) and the sparse
indexer's K cache."""
from typing import List

import torch

FP8_QUANT_BLOCK = 128  # one fp32 scale per 128 latent elements


def mla_fp8_kv_cache_dim(kv_lora_rank: int, qk_rope_head_dim: int) -> int:
    # [fp8 nope latent | fp32 scales | bf16 rope]
    return kv_lora_rank + kv_lora_rank // FP8_QUANT_BLOCK * 4 + qk_rope_head_dim * 2


def index_k_with_scale_dim(index_head_dim: int) -> int:
    # [fp8 index_k | fp32 scale per 128]
    return index_head_dim + index_head_dim // FP8_QUANT_BLOCK * 4


class MLATokenToKVPoolFP8:

    def __init__(self, size: int, page_size: int, kv_lora_rank: int, qk_rope_head_dim: int,
                 index_head_dim: int, layer_num: int, device: str):
        assert size % page_size == 0
        self.size = size
        self.page_size = page_size
        self.layer_num = layer_num
        self.kv_cache_dim = mla_fp8_kv_cache_dim(kv_lora_rank, qk_rope_head_dim)
        self.store_dtype = torch.uint8
        self.kv_buffer: List[torch.Tensor] = [
            torch.zeros((size, 1, self.kv_cache_dim), dtype=self.store_dtype, device=device)
            for _ in range(layer_num)
        ]
        num_pages = size // page_size
        self.index_k_with_scale_buffer: List[torch.Tensor] = [
            torch.zeros((num_pages, page_size * index_k_with_scale_dim(index_head_dim)),
                        dtype=self.store_dtype, device=device)
            for _ in range(layer_num)
        ]

    def get_contiguous_buf_infos(self):
        ptrs, lens = [], []
        for buf in self.kv_buffer + self.index_k_with_scale_buffer:
            ptrs.append(buf.data_ptr() if buf.device.type != "meta" else 0)
            lens.append(buf.nbytes)
        return ptrs, lens
