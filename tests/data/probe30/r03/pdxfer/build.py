"""Prefill-side cache construction."""
from typing import Optional, Tuple

import torch

from .kv_pool import Fp8PagedKVPool
from .transfer import KVTransferBuffer


def build_prefill_cache(
    num_layers: int = 8,
    num_kv_heads: int = 8,
    head_dim: int = 128,
    block_size: int = 16,
    num_blocks: int = 512,
    max_transfer_tokens: int = 4096,
    device="cuda",
    staging_device: Optional[str] = None,
) -> Tuple[Fp8PagedKVPool, KVTransferBuffer]:
    pool = Fp8PagedKVPool(
        num_blocks=num_blocks,
        block_size=block_size,
        num_layers=num_layers,
        num_kv_heads=num_kv_heads,
        head_dim=head_dim,
        device=device,
    )
    if staging_device is None:
        staging_device = "meta" if torch.device(device).type == "meta" else "cpu"
    staging = KVTransferBuffer(
        max_tokens=max_transfer_tokens,
        num_layers=num_layers,
        num_kv_heads=num_kv_heads,
        head_dim=head_dim,
        device=staging_device,
    )
    return pool, staging
