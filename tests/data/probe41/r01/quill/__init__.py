"""quill: a small paged-attention serving runtime with a CPU spill tier."""
from .config import QuillConfig
from .engine import build_kv_tiers

__all__ = ["QuillConfig", "build_kv_tiers"]
