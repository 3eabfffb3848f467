"""XFormers: no fp8 KV cache; its shape checks the cache dtype it is given."""


class XFormersAttentionBackend:
    @classmethod
    def supports_kv_cache_dtype(cls, kv_cache_dtype):
        return kv_cache_dtype == "auto"

    @staticmethod
    def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, cache_dtype_str="auto"):
        if cache_dtype_str != "auto":
            raise NotImplementedError("XFormers does not support an fp8 KV cache")
        return (2, num_blocks, block_size, num_kv_heads, head_size)
