"""Paged KV cache (MLC-style page layout) with an NVMe spill staging buffer."""
from .dtypes import KVDType
from .paged import PagedKVCache
from .spill import DiskSpillBuffer
from .runtime import create_kv_state
