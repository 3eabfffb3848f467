from dataclasses import dataclass
from typing import Tuple

import torch

from aphrodite_lite.quantization.kv_quant import (KV_STORAGE_DTYPE,
                                                  scale_zero_dim)


@dataclass
class LMCacheEngineMetadata:
    model_name: str
    world_size: int
    worker_id: int
    fmt: str
    kv_dtype: torch.dtype
    kv_shape: Tuple[int, ...]      # (layers, 2, chunk_tokens, heads, head)
    scale_shape: Tuple[int, ...]   # (layers, 2, chunk_tokens, heads, groups*2)


def build_metadata(cfg) -> LMCacheEngineMetadata:
    m, c, p = cfg.model, cfg.cache, cfg.parallel
    num_kv_heads = max(1, m.num_key_value_heads // p.tensor_parallel_size)
    chunk = cfg.lmcache.chunk_size
    return LMCacheEngineMetadata(
        model_name=m.model,
        world_size=p.tensor_parallel_size,
        worker_id=p.rank,
        fmt="aphrodite",
        kv_dtype=KV_STORAGE_DTYPE[c.cache_dtype],
        kv_shape=(m.num_hidden_layers, 2, chunk, num_kv_heads, m.head_dim),
        scale_shape=(m.num_hidden_layers, 2, chunk, num_kv_heads,
                     scale_zero_dim(m.head_dim, c.kv_quant_group_size)),
    )
