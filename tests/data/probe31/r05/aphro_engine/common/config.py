import functools
from dataclasses import dataclass, field
from typing import Optional

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
class ModelConfig:
    model: str
    hidden_size: int
    num_attention_heads: int
    num_key_value_heads: int
    num_hidden_layers: int
    dtype: torch.dtype = torch.float16
    head_dim: Optional[int] = None

    def get_head_size(self) -> int:
        if self.head_dim is not None:
            return self.head_dim
        return self.hidden_size // self.num_attention_heads

    def get_total_num_kv_heads(self) -> int:
        return self.num_key_value_heads

    def get_num_kv_heads(self, parallel_config: "ParallelConfig") -> int:
        # KV heads are replicated when there are fewer of them than TP ranks.
        total = self.get_total_num_kv_heads()
        return max(1, total // parallel_config.tensor_parallel_size)

    def get_num_layers(self, parallel_config: "ParallelConfig") -> int:
        return self.num_hidden_layers // parallel_config.pipeline_parallel_size


@dataclass
class ParallelConfig:
    pipeline_parallel_size: int = 1
    tensor_parallel_size: int = 1
    worker_use_ray: bool = False


@dataclass
class CacheConfig:
    block_size: int = 16
    gpu_memory_utilization: float = 0.9
    swap_space_bytes: int = 4 << 20
    cache_dtype: str = "auto"
    num_gpu_blocks: Optional[int] = None
    num_cpu_blocks: Optional[int] = None
    extra: dict = field(default_factory=dict)


default_model_config = functools.partial(
    ModelConfig,
    model="NousResearch/Meta-Llama-3-8B-Instruct",
    hidden_size=2048,
    num_attention_heads=16,
    num_key_value_heads=8,
    num_hidden_layers=4,
    dtype=torch.float16,
)
default_parallel_config = functools.partial(ParallelConfig, tensor_parallel_size=2)
default_cache_config = functools.partial(CacheConfig, block_size=16, num_gpu_blocks=64, num_cpu_blocks=32)
