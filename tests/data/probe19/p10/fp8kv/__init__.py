"""FP8 KV cache with per-token scales and a pinned host staging area for offload."""
from .env import SETTINGS
from .stack import create_kv_stack

__all__ = ["SETTINGS", "create_kv_stack"]
