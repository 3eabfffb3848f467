"""Model / cache configuration subset used by the worker."""

from dataclasses import dataclass

import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float32,
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


@dataclass
class ModelConfig:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_size: int = 128
    dtype: torch.dtype = torch.bfloat16


@dataclass
class CacheConfig:
    block_size: int = 16
    num_gpu_blocks: int = 4096
    num_cpu_blocks: int = 16384
    cache_dtype: str = "fp8"


def resolve_kv_cache_dtype(cache_dtype: str, model_dtype: torch.dtype) -> torch.dtype:
    if cache_dtype == "auto":
        return model_dtype
    return STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]
