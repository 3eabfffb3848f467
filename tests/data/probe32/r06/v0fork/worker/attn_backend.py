"""Attention backend hooks needed by the cache engine."""


class FlashAttentionBackend:
    @staticmethod
    def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size):
        return (2, num_blocks, block_size, num_kv_heads, head_size)

    @staticmethod
    def swap_blocks(src_kv_cache, dst_kv_cache, src_to_dst):
        for src, dst in src_to_dst.tolist():
            dst_kv_cache[:, dst].copy_(src_kv_cache[:, src].to(dst_kv_cache.device), non_blocking=True)
