"""Factory used by the executor to create the KV cache pools."""
from typing import Optional, Sequence, Tuple

import torch

from .kv_cache_manager import CacheType, KVCacheManager
from .mapping import Mapping
from .secondary import SecondaryKVPool

_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}

# Variable-GQA layout: alternating blocks of 8-head and 4-head layers.
DEFAULT_KV_HEADS_PER_LAYER = (8, 8, 4, 4, 8, 8, 4, 4)


def create_kv_cache_manager(
    num_kv_heads_per_layer: Sequence[int] = DEFAULT_KV_HEADS_PER_LAYER,
    head_dim: int = 128,
    tokens_per_block: int = 32,
    max_tokens: int = 2048,
    host_cache_tokens: int = 4096,
    kv_cache_dtype: str = "float16",
    tp_size: int = 2,
    rank: int = 0,
    device="cuda",
    host_device: Optional[str] = None,
) -> Tuple[KVCacheManager, SecondaryKVPool]:
    mapping = Mapping(world_size=tp_size, tp_size=tp_size, rank=rank)
    manager = KVCacheManager(
        num_layers=len(num_kv_heads_per_layer),
        num_kv_heads=list(num_kv_heads_per_layer),
        head_dim=head_dim,
        tokens_per_block=tokens_per_block,
        max_tokens=max_tokens,
        dtype=_DTYPES[kv_cache_dtype],
        mapping=mapping,
        cache_type=CacheType.SELF,
        device=device,
    )
    if host_device is None:
        host_device = "meta" if torch.device(device).type == "meta" else "cpu"
    secondary = SecondaryKVPool(manager, max_tokens=host_cache_tokens, device=host_device)
    return manager, secondary
