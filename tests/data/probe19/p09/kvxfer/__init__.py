"""Paged KV transfer between a prefill sender and a decode receiver."""
from .bootstrap import build_endpoints
from .conf import load_conf

__all__ = ["build_endpoints", "load_conf"]
