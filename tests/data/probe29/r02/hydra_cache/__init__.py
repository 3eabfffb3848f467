"""hydra_cache - block KV storage for the prefill workers and the decode-side receive buffer."""
from .spec import CacheSpec

__all__ = ["CacheSpec"]
