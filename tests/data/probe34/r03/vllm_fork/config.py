"""Minimal model / cache / parallel configuration objects."""
from dataclasses import dataclass

import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.float16,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float32,
    "fp8": torch.uint8,
    "fp8_e4m3": torch.uint8,
}


@dataclass
class ModelConfig:
    hidden_size: int = 5120
    num_attention_heads: int = 40
    num_key_value_heads: int = 8
    num_hidden_layers: int = 40
    dtype: torch.dtype = torch.bfloat16

    def get_head_size(self):
        return self.hidden_size // self.num_attention_heads

    def get_num_kv_heads(self, parallel_config):
        return max(1, self.num_key_value_heads // parallel_config.tensor_parallel_size)

    def get_num_layers(self, parallel_config):
        return self.num_hidden_layers // parallel_config.pipeline_parallel_size


@dataclass
class CacheConfig:
    block_size: int = 16
    cache_dtype: str = "auto"
    num_gpu_blocks: int = 4096
    num_cpu_blocks: int = 1024


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 2
    pipeline_parallel_size: int = 1


def resolve_cache_dtype(cache_config, model_config):
    if cache_config.cache_dtype == "auto":
        return model_config.dtype
    return STR_DTYPE_TO_TORCH_DTYPE[cache_config.cache_dtype]
