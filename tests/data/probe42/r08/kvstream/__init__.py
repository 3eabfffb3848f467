"""kvstream: paged (optionally fp8) KV rings and the prefill-side send ring."""
from .config import StreamConfig
from .launch import build_rings

__all__ = ["StreamConfig", "build_rings"]
