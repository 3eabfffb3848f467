"""Hopper's FA3: fp8 caches (a subclass of a subclass, in its own file)."""
from vllm.v1.attention.backends.flash_fp8 import FlashAttention3Backend


class FlashAttention3HopperBackend(FlashAttention3Backend):
    @classmethod
    def supports_kv_cache_dtype(cls, kv_cache_dtype):
        return kv_cache_dtype in ("auto", "fp8", "fp8_e5m2")
