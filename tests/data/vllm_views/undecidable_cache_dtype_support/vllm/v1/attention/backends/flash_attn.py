"""FlashAttention (vllm 0.14's declarations): fp8 only on Hopper."""

import torch

from vllm.attention.utils.fa_utils import flash_attn_supports_fp8


class FlashAttentionBackend:
    @classmethod
    def get_supported_dtypes(cls) -> list[torch.dtype]:
        return [torch.float16, torch.bfloat16]

    @classmethod
    def get_supported_head_sizes(cls) -> list[int]:
        return [32, 64, 96, 128, 160, 192, 224, 256]

    @classmethod
    def is_mla(cls) -> bool:
        return False

    @classmethod
    def supports_kv_cache_dtype(cls, kv_cache_dtype) -> bool:
        if kv_cache_dtype is None:
            return True
        if kv_cache_dtype.startswith("fp8"):
            return flash_attn_supports_fp8()
        return kv_cache_dtype in ["auto"]

    @staticmethod
    def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
        if cache_dtype_str.startswith("fp8"):
            # one float32 scale per row after the fp8 values: 4 more bytes than the spec counts
            return (2, num_blocks, block_size, num_kv_heads, head_size + 4)
        return (2, num_blocks, block_size, num_kv_heads, head_size)
