"""Builds the device pool and the configured offload tier."""
from typing import Optional, Tuple

import torch

from .device_pool import PagedKVPool
from .layout import KVLayout, dtype_from_env
from .tiers import OffloadTier


def make_kv_store(
    num_layers: int = 4,
    num_blocks: int = 1024,
    block_size: int = 16,
    num_kv_heads: int = 8,
    head_dim: int = 128,
    offload_tier: str = "pinned",
    offload_blocks: int = 2048,
    dtype: Optional[torch.dtype] = None,
    device="cuda",
    offload_device: Optional[str] = None,
) -> Tuple[PagedKVPool, OffloadTier]:
    layout = KVLayout(
        num_layers=num_layers,
        num_blocks=num_blocks,
        block_size=block_size,
        num_kv_heads=num_kv_heads,
        head_dim=head_dim,
        dtype=dtype if dtype is not None else dtype_from_env(),
    )
    pool = PagedKVPool(layout, device=device)
    tier_cls = OffloadTier.registry[offload_tier]
    if offload_device is None:
        offload_device = "meta" if torch.device(device).type == "meta" else "cpu"
    tier = tier_cls(layout, offload_blocks, device=offload_device)
    return pool, tier
