"""The attention selector's registry: backends by import path (vllm 0.28, cut down)."""

import enum


class AttentionBackendEnum(enum.Enum):
    FLASH_ATTN = "vllm.v1.attention.backends.flash_attn.FlashAttentionBackend"
    TRITON_MLA = "vllm.v1.attention.backends.mla.common.TritonMLABackend"
