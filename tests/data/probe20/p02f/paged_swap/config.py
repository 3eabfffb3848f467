from typing import NamedTuple

import torch


class ModelShape(NamedTuple):
    """Attention geometry of Mistral-7B-Instruct-v0.3."""

    num_hidden_layers: int = 32
    num_key_value_heads: int = 8
    head_size: int = 128
    torch_dtype: str = "bfloat16"


class CacheConfig(NamedTuple):
    block_size: int = 16
    num_gpu_blocks: int = 4096
    swap_space_gib: float = 4.0
    cache_dtype: str = "auto"


STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.float16,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float32,
    "fp8": torch.uint8,
    "fp8_e4m3": torch.uint8,
    "fp8_e5m2": torch.uint8,
}


def model_dtype(shape: ModelShape) -> torch.dtype:
    return STR_DTYPE_TO_TORCH_DTYPE[shape.torch_dtype]
