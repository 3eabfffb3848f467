"""Model, cache and parallel configuration."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.float16,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float32,
    "fp8": torch.uint8,
    "fp8_e4m3": torch.uint8,
    "fp8_e5m2": torch.uint8,
}


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1


@dataclass
class CacheConfig:
    block_size: int = 16
    cache_dtype: str = "auto"
    num_gpu_blocks: int | None = None
    swap_space_bytes: int = 4 << 30


class ModelConfig:
    def __init__(self, hf_config: dict[str, Any]):
        self.hf_config = hf_config
        self.dtype = STR_DTYPE_TO_TORCH_DTYPE[hf_config.get("torch_dtype", "bfloat16")]

    def get_head_size(self) -> int:
        if "head_dim" in self.hf_config:
            return self.hf_config["head_dim"]
        return self.hf_config["hidden_size"] // self.hf_config["num_attention_heads"]

    def get_total_num_kv_heads(self) -> int:
        return self.hf_config.get("num_key_value_heads", self.hf_config["num_attention_heads"])

    def get_num_kv_heads(self, parallel: ParallelConfig) -> int:
        return max(1, self.get_total_num_kv_heads() // parallel.tensor_parallel_size)

    def get_num_layers(self, parallel: ParallelConfig) -> int:
        return self.hf_config["num_hidden_layers"] // parallel.pipeline_parallel_size

    def kv_storage_dtype(self, cache: CacheConfig) -> torch.dtype:
        if cache.cache_dtype == "auto":
            return self.dtype
        return STR_DTYPE_TO_TORCH_DTYPE[cache.cache_dtype]
