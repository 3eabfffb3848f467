"""tidepool: paged KV ledgers with a host-side mirror (forked serving runtime)."""
from .config import PoolConfig
from .engine import build_ledgers

__all__ = ["PoolConfig", "build_ledgers"]
