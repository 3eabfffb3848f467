from typing import Tuple


class FlashAttentionBackend:
    name = "FLASH_ATTN"

    @staticmethod
    def get_kv_cache_shape(
        num_blocks: int, block_size: int, num_kv_heads: int, head_size: int
    ) -> Tuple[int, ...]:
        if block_size % 16 != 0:
            raise ValueError("Block size must be a multiple of 16.")
        return (2, num_blocks, block_size, num_kv_heads, head_size)


_BACKENDS = {"FLASH_ATTN": FlashAttentionBackend}


def get_attn_backend(name: str = "FLASH_ATTN"):
    return _BACKENDS[name]
