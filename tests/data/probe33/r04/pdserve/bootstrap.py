"""Prefill-side bootstrap."""

from .config import merge_config
from .kv_pool import PagedKVPool
from .transfer import TransferBuffer


def init_memory_pool(overrides=None, device="cuda", host_device=None, engine=None):
    """Return (kv_pool, transfer_buffer) for this pipeline stage."""
    cfg = merge_config(overrides)
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    pool = PagedKVPool(cfg, device=device)
    staging = TransferBuffer(cfg, engine=engine, device=host_device)
    return pool, staging
