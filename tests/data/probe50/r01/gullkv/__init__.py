"""gullkv: two-tier (HBM + pinned DRAM) KV cache used by our Llama serving stack."""
from gullkv.tiers import make_hierarchical_cache

__all__ = ["make_hierarchical_cache"]
