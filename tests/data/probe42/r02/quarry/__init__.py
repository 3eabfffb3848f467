"""quarry: token-granular KV banks with a CPU bank for hierarchical caching."""
from .config import EngineArgs
from .factory import create_kv_banks

__all__ = ["EngineArgs", "create_kv_banks"]
