from dataclasses import dataclass
from typing import Optional

import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.half,
    "bfloat16": torch.bfloat16,
    "float": torch.float,
    "fp8": torch.uint8,
    "fp8_e4m3": torch.uint8,
    "fp8_e5m2": torch.uint8,
}

GiB = 1 << 30


@dataclass
class CacheConfig:
    block_size: int = 16
    cache_dtype: str = "auto"
    swap_space_gib: float = 4.0
    num_gpu_blocks: Optional[int] = None


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 1


class ModelConfig:
    def __init__(self, hf_config: dict, dtype: str = "bfloat16"):
        self.hf_config = hf_config
        self.dtype = STR_DTYPE_TO_TORCH_DTYPE[dtype]

    def get_head_size(self) -> int:
        hf = self.hf_config
        return hf.get("head_dim", hf["hidden_size"] // hf["num_attention_heads"])

    def get_num_kv_heads(self, parallel: ParallelConfig) -> int:
        total = self.hf_config.get("num_key_value_heads", self.hf_config["num_attention_heads"])
        return max(1, total // parallel.tensor_parallel_size)

    def get_num_layers(self, parallel: ParallelConfig) -> int:
        return self.hf_config["num_hidden_layers"]


def kv_cache_torch_dtype(cache_config: CacheConfig, model_config: ModelConfig) -> torch.dtype:
    if cache_config.cache_dtype == "auto":
        return model_config.dtype
    return STR_DTYPE_TO_TORCH_DTYPE[cache_config.cache_dtype]
