"""Model / cache / parallel configuration (v0 style)."""
from dataclasses import dataclass

import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.half,
    "bfloat16": torch.bfloat16,
    "float": torch.float,
    "fp8": torch.uint8,
    "fp8_e4m3": torch.uint8,
    "fp8_e5m2": torch.uint8,
}


@dataclass
class ModelConfig:
    dtype: torch.dtype = torch.bfloat16
    num_hidden_layers: int = 32
    total_num_kv_heads: int = 8
    head_size: int = 128

    def get_num_kv_heads(self, parallel_config):
        return max(1, self.total_num_kv_heads // parallel_config.tensor_parallel_size)

    def get_layers_start_end_indices(self, parallel_config):
        per_stage = self.num_hidden_layers // parallel_config.pipeline_parallel_size
        start = parallel_config.pipeline_rank * per_stage
        return start, start + per_stage


@dataclass
class CacheConfig:
    block_size: int = 16
    cache_dtype: str = "fp8"
    num_gpu_blocks: int = 512
    num_cpu_blocks: int = 256


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 2
    pipeline_rank: int = 0


def get_kv_cache_torch_dtype(cache_dtype, model_dtype):
    if cache_dtype == "auto":
        return model_dtype
    return STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]
