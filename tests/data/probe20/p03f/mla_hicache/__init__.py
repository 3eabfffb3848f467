"""Hierarchical (GPU + host) MLA cache for DeepSeek-V3 serving."""
from .hicache import build_hierarchical_cache
