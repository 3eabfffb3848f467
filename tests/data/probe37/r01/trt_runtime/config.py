"""Configuration objects deserialised from the engine's config.json."""
from dataclasses import dataclass
from typing import List, Optional

import torch

_STR_TO_TORCH_DTYPE = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int8": torch.int8,
    "fp8": torch.float8_e4m3fn,
}

MODEL_DTYPES = ("float32", "float16", "bfloat16")
KV_CACHE_DTYPES = ("float32", "float16", "bfloat16", "int8", "fp8")


def str_dtype_to_torch(dtype: str) -> torch.dtype:
    try:
        return _STR_TO_TORCH_DTYPE[dtype]
    except KeyError:
        raise ValueError(f"unsupported dtype string {dtype!r}") from None


@dataclass
class ModelConfig:
    """Attention geometry of the built engine."""

    num_layers: int = 32
    num_heads: int = 32
    num_kv_heads: int = 8
    hidden_size: int = 4096
    dtype: str = "float16"

    def __post_init__(self):
        if self.dtype not in MODEL_DTYPES:
            raise ValueError(f"model dtype must be one of {MODEL_DTYPES}, got {self.dtype}")
        if self.hidden_size % self.num_heads:
            raise ValueError("hidden_size must be divisible by num_heads")
        if self.num_kv_heads <= 0 or self.num_heads % self.num_kv_heads:
            raise ValueError("num_heads must be a multiple of num_kv_heads")

    @property
    def head_size(self) -> int:
        return self.hidden_size // self.num_heads


@dataclass
class Mapping:
    """Rank placement for tensor and pipeline parallelism."""

    world_size: int = 1
    tp_size: int = 1
    pp_size: int = 1
    rank: int = 0

    def __post_init__(self):
        if self.world_size != self.tp_size * self.pp_size:
            raise ValueError("world_size must equal tp_size * pp_size")
        if not 0 <= self.rank < self.world_size:
            raise ValueError("rank out of range")

    @property
    def tp_rank(self) -> int:
        return self.rank % self.tp_size

    @property
    def pp_rank(self) -> int:
        return self.rank // self.tp_size

    def pp_layers(self, num_layers: int) -> List[int]:
        if num_layers % self.pp_size:
            raise ValueError("num_layers must be divisible by pp_size")
        per_stage = num_layers // self.pp_size
        start = self.pp_rank * per_stage
        return list(range(start, start + per_stage))

    def check_kv_heads(self, num_kv_heads: int) -> None:
        """KV heads are either split evenly across TP ranks or replicated on every rank."""
        if num_kv_heads % self.tp_size and self.tp_size % num_kv_heads:
            raise ValueError(f"cannot shard {num_kv_heads} kv heads over tp={self.tp_size}")


@dataclass
class KvCacheConfig:
    tokens_per_block: int = 64
    max_primary_blocks: int = 512
    max_secondary_blocks: int = 256
    kv_cache_dtype: Optional[str] = None  # None: same as ModelConfig.dtype
    enable_block_reuse: bool = True

    def __post_init__(self):
        if self.kv_cache_dtype is not None and self.kv_cache_dtype not in KV_CACHE_DTYPES:
            raise ValueError(f"kv_cache_dtype must be one of {KV_CACHE_DTYPES}")
        tpb = self.tokens_per_block
        if tpb <= 0 or tpb & (tpb - 1):
            raise ValueError("tokens_per_block must be a power of two")
