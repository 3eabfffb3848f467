"""Describes the per-layer block geometry shared by every cache tier."""
from typing import Dict, NamedTuple, Tuple

import torch

_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}


class CacheDesc(NamedTuple):
    shape: Tuple[int, ...]
    dtype: torch.dtype


def _packed_dim(head_dim: int, quant_policy: int) -> int:
    if quant_policy == 0:
        return head_dim
    assert (head_dim * quant_policy) % 8 == 0
    return head_dim * quant_policy // 8


def get_cache_descs(model: Dict, cache: Dict, tp: int) -> Dict[str, CacheDesc]:
    block_size = cache["block_size"]
    quant_policy = cache["quant_policy"]
    num_heads = max(1, model["num_key_value_heads"] // tp)
    dtype = _DTYPES[model["dtype"]]
    store_dtype = torch.uint8 if quant_policy in (4, 8) else dtype
    descs = {
        "k_cache": CacheDesc(
            (block_size, num_heads, _packed_dim(model["k_head_dim"], quant_policy)), store_dtype),
        "v_cache": CacheDesc(
            (block_size, num_heads, _packed_dim(model["v_head_dim"], quant_policy)), store_dtype),
    }
    if quant_policy in (4, 8):
        # asymmetric quantisation: (scale, zero) per token per head
        descs["k_scales_zeros"] = CacheDesc((block_size, num_heads, 2), dtype)
        descs["v_scales_zeros"] = CacheDesc((block_size, num_heads, 2), dtype)
    return descs
