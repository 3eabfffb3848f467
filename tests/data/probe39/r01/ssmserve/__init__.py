"""Recurrent-state serving runtime for Mamba2-style decoders."""

from .dims import Mamba2Dims
from .runtime import build_state_caches

__all__ = ["Mamba2Dims", "build_state_caches"]
