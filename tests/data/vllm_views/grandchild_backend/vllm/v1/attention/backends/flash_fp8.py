"""FA3 base (same declarations as FlashAttention)."""
from vllm.v1.attention.backends.flash_attn import FlashAttentionBackend


class FlashAttention3Backend(FlashAttentionBackend):
    @staticmethod
    def get_name():
        return "FLASH_ATTN_3"
