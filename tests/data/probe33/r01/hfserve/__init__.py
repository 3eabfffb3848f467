"""Minimal HF-style generation server with a statically allocated KV cache."""

from .engine import build_caches

__all__ = ["build_caches"]
