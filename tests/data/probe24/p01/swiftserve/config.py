from dataclasses import dataclass, field
from typing import Optional

import torch

_STR_TO_DTYPE = {
    "half": torch.float16,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float32,
    "float32": torch.float32,
    "fp8": torch.uint8,  # stored as raw bytes, cast in the attention kernel
    "fp8_e4m3": torch.uint8,
}


@dataclass
class ModelConfig:
    model: str = "meta-llama/Llama-2-13b-hf"
    dtype: str = "float16"
    hidden_size: int = 5120
    num_attention_heads: int = 40
    num_key_value_heads: Optional[int] = None  # None -> MHA
    num_hidden_layers: int = 40
    head_dim: Optional[int] = None

    def get_head_size(self) -> int:
        if self.head_dim is not None:
            return self.head_dim
        return self.hidden_size // self.num_attention_heads

    def get_total_num_kv_heads(self) -> int:
        if self.num_key_value_heads is None:
            return self.num_attention_heads
        return self.num_key_value_heads

    def get_num_kv_heads(self, parallel_config: "ParallelConfig") -> int:
        # KV heads are replicated when there are fewer of them than TP ranks.
        total = self.get_total_num_kv_heads()
        return max(1, total // parallel_config.tensor_parallel_size)

    def get_num_layers(self, parallel_config: "ParallelConfig") -> int:
        return self.num_hidden_layers // parallel_config.pipeline_parallel_size


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 2
    pipeline_parallel_size: int = 1


@dataclass
class CacheConfig:
    block_size: int = 16
    cache_dtype: str = "auto"
    num_gpu_blocks: int = 2048
    num_cpu_blocks: int = 512
    swap_space_gib: float = 4.0
    extra: dict = field(default_factory=dict)


def resolve_cache_dtype(cache_config: CacheConfig, model_config: ModelConfig) -> torch.dtype:
    name = model_config.dtype if cache_config.cache_dtype == "auto" else cache_config.cache_dtype
    return _STR_TO_DTYPE[name]
