"""A model layer that reuses FlashAttention for its metadata (as vLLM 0.28's inkling does)."""
from vllm.v1.attention.backends.flash_attn import FlashAttentionBackend


class InklingAttention:
    def get_attn_backend(self):
        return FlashAttentionBackend
