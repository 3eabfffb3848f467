from typing import Tuple


class FlashAttentionBackend:

    @staticmethod
    def get_name() -> str:
        return "flash-attn"

    @staticmethod
    def get_kv_cache_shape(num_blocks: int, block_size: int, num_kv_heads: int,
                           head_size: int) -> Tuple[int, ...]:
        if block_size % 16 != 0:
            raise ValueError("Block size must be a multiple of 16.")
        return (2, num_blocks, block_size, num_kv_heads, head_size)


def get_attn_backend(name: str = "flash-attn"):
    return FlashAttentionBackend
