"""swapyard: int8-quantized KV depots with a pinned swap space."""
from .base import DepotConfig
from .engine import make_depots

__all__ = ["DepotConfig", "make_depots"]
