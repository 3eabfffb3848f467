from typing import NamedTuple, Sequence

import torch


class KvCacheParams(NamedTuple):
    layer_ids: Sequence[int]
    num_kv_heads: int
    size_per_head: int
    tokens_per_block: int
    dtype: torch.dtype


def default_params() -> KvCacheParams:
    return KvCacheParams(
        layer_ids=tuple(range(0, 28)),
        num_kv_heads=4,
        size_per_head=64,
        tokens_per_block=32,
        dtype=torch.bfloat16,
    )
