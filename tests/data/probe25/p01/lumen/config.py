"""Engine-level configuration objects (model shape, cache, parallelism)."""
from dataclasses import dataclass, field

import torch

_CACHE_DTYPES = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


@dataclass
class ModelShape:
    num_hidden_layers: int = 32
    num_attention_heads: int = 32
    num_key_value_heads: int = 8
    head_dim: int = 128
    dtype: torch.dtype = torch.bfloat16
    # every other layer uses a 4k sliding window (gemma-2 style interleave)
    sliding_window: int = 4096
    sliding_window_pattern: int = 2


@dataclass
class CacheSettings:
    block_size: int = 16
    cache_dtype: str = "auto"
    gpu_kv_budget_bytes: int = 8 * 1024**3
    cpu_offload_bytes: int = 4 * 1024**3


@dataclass
class ParallelSettings:
    tensor_parallel_size: int = 2
    pipeline_parallel_size: int = 1


@dataclass
class EngineSettings:
    model: ModelShape = field(default_factory=ModelShape)
    cache: CacheSettings = field(default_factory=CacheSettings)
    parallel: ParallelSettings = field(default_factory=ParallelSettings)


def resolve_cache_dtype(cache_dtype: str, model_dtype: torch.dtype) -> torch.dtype:
    if cache_dtype == "auto":
        return model_dtype
    return _CACHE_DTYPES[cache_dtype]
