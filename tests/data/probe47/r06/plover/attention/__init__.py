"""Attention backends and their KV cache shapes."""
from .backend import get_attn_backend  # noqa: F401
