"""FlashAttention and a subclass that pads head_size in its own shape helper."""

import torch


class FlashAttentionBackend:
    @classmethod
    def get_supported_dtypes(cls) -> list[torch.dtype]:
        return [torch.float16, torch.bfloat16]

    @classmethod
    def get_supported_head_sizes(cls) -> list[int]:
        return [32, 64, 96, 128, 160, 192, 224, 256]

    @classmethod
    def row(cls, head_size):
        return head_size

    @classmethod
    def get_kv_cache_shape(cls, num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
        return (2, num_blocks, block_size, num_kv_heads, cls.row(head_size))


class PaddedBackend(FlashAttentionBackend):
    @classmethod
    def row(cls, head_size):
        return head_size + 64  # pads rows the spec does not count


class WrappedBackend(FlashAttentionBackend):
    @classmethod
    def get_kv_cache_shape(cls, num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
        shape = super().get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str)
        return shape[:4] + (shape[4] // 2,)   # half rows: a real mismatch
