from dataclasses import dataclass, field
from typing import List, Optional

import torch

GiB = 1 << 30

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
    # gemma-2-9b
    num_hidden_layers: int = 42
    hidden_size: int = 3584
    num_attention_heads: int = 16
    num_key_value_heads: int = 8
    head_dim: int = 256
    sliding_window: int = 4096
    dtype: torch.dtype = torch.bfloat16
    layer_types: Optional[List[str]] = None

    def __post_init__(self):
        if self.layer_types is None:
            self.layer_types = [
                "sliding_attention" if i % 2 == 0 else "full_attention"
                for i in range(self.num_hidden_layers)
            ]

    def get_head_size(self) -> int:
        return self.head_dim or self.hidden_size // self.num_attention_heads

    def get_num_kv_heads(self, tensor_parallel_size: int) -> int:
        return max(1, self.num_key_value_heads // tensor_parallel_size)


@dataclass
class CacheConfig:
    block_size: int = 16
    cache_dtype: str = "auto"
    num_gpu_blocks: int = 4096
    swap_space_bytes: int = 4 * GiB


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 2
    pipeline_parallel_size: int = 1


@dataclass
class EngineConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    cache: CacheConfig = field(default_factory=CacheConfig)
    parallel: ParallelConfig = field(default_factory=ParallelConfig)
