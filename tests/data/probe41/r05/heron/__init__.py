"""heron: fp8 paged KV cache for the decode side of a disaggregated server."""
from .config import HeronConfig
