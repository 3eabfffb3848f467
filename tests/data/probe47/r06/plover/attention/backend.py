"""Backend classes describe how each layer's KV cache tensor is shaped."""
from __future__ import annotations

from enum import Enum


class BackendName(Enum):
    FLASH_ATTN = "flash_attn"
    XFORMERS = "xformers"


class FlashAttnBackend:
    @staticmethod
    def get_kv_cache_shape(num_blocks: int, block_size: int, num_kv_heads: int,
                           head_size: int) -> tuple[int, ...]:
        return (2, num_blocks, block_size, num_kv_heads, head_size)


class XFormersBackend:
    @staticmethod
    def get_kv_cache_shape(num_blocks: int, block_size: int, num_kv_heads: int,
                           head_size: int) -> tuple[int, ...]:
        return (2, num_blocks, block_size * num_kv_heads * head_size)


_BACKENDS = {BackendName.FLASH_ATTN: FlashAttnBackend, BackendName.XFORMERS: XFormersBackend}


def get_attn_backend(name: str | BackendName = BackendName.FLASH_ATTN):
    return _BACKENDS[BackendName(name)]
