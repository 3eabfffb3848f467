from dataclasses import dataclass

import torch


@dataclass
class ModelShape:
    layers: int = 10
    kv_heads: int = 8
    head_size: int = 128
    dtype: torch.dtype = torch.bfloat16


@dataclass
class BlockCacheConfig:
    block_size: int = 16
    gpu_blocks: int = 256
    cpu_blocks: int = 512
    cache_dtype: str = "auto"


@dataclass
class ServeArgs:
    kv_cache_dtype: str = "fp8_e5m2"
    device: str = "cuda"
    swap_device: str = "cpu"


STR_TO_TORCH = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "fp8_e5m2": torch.float8_e5m2,
    "fp8_e4m3": torch.float8_e4m3fn,
}


def kv_torch_dtype(cache_dtype: str, model: ModelShape) -> torch.dtype:
    if cache_dtype == "auto":
        return model.dtype
    return STR_TO_TORCH[cache_dtype]
