"""MLA latent KV pools for prefill/decode disaggregation (DeepSeek-V3.2-style)."""
from .launch import build_pair
from .settings import MLACacheSettings

__all__ = ["build_pair", "MLACacheSettings"]
