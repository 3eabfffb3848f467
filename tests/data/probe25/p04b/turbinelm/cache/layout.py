"""Block shape helpers shared by device and swap caches."""
from typing import Tuple

import torch

from turbinelm.messages import EngineCacheOptions
from turbinelm.model_meta import ArchDims


def cache_dtype(opts: EngineCacheOptions, dims: ArchDims) -> torch.dtype:
    return torch.uint8 if opts.quant_policy in (4, 8) else dims.dtype


def packed_dim(dim: int, quant_policy: int) -> int:
    return dim // 2 if quant_policy == 4 else dim


def k_block_shape(opts: EngineCacheOptions, dims: ArchDims) -> Tuple[int, ...]:
    return (opts.block_size, dims.local_kv_heads(opts.tp),
            packed_dim(dims.k_head_dim, opts.quant_policy))


def v_block_shape(opts: EngineCacheOptions, dims: ArchDims) -> Tuple[int, ...]:
    return (opts.block_size, dims.local_kv_heads(opts.tp),
            packed_dim(dims.v_head_dim, opts.quant_policy))


def quant_block_shape(opts: EngineCacheOptions, dims: ArchDims) -> Tuple[int, ...]:
    # (scale, zero) per token per head
    return (opts.block_size, dims.local_kv_heads(opts.tp), 2)
