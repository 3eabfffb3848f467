"""vLLM 0.22's hidden-state cache: its own backend, held by its layer (cut down)."""
import torch


class CacheOnlyAttentionBackend:
    supported_dtypes = [torch.float16, torch.bfloat16, torch.float32]

    @classmethod
    def is_mla(cls):
        return False

    @classmethod
    def get_supported_head_sizes(cls):
        return []

    @classmethod
    def supports_kv_cache_dtype(cls, kv_cache_dtype):
        return kv_cache_dtype in ["auto", "bfloat16"]

    @staticmethod
    def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
        # num_kv_heads = num_hidden_layers, head_size = hidden_size; no k/v (2) dim
        return (num_blocks, block_size, num_kv_heads, head_size)


class CacheOnlyAttentionLayer:
    def __init__(self, num_heads, head_size):
        self.attn_backend = CacheOnlyAttentionBackend

    def get_attn_backend(self):
        return self.attn_backend
