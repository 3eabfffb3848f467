from dataclasses import dataclass, field
from typing import Optional

import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.half,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float,
    "fp8": torch.uint8,
    "fp8_e4m3": torch.uint8,
    "fp8_e5m2": torch.uint8,
}

GiB_bytes = 1 << 30


@dataclass
class ModelConfig:
    model: str = "meta-llama/Llama-3.1-70B-Instruct"
    dtype: str = "bfloat16"
    hf_config: dict = field(default_factory=lambda: {
        "hidden_size": 8192,
        "num_attention_heads": 64,
        "num_key_value_heads": 8,
        "num_hidden_layers": 80,
        "max_position_embeddings": 131072,
    })

    def get_head_size(self) -> int:
        cfg = self.hf_config
        return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]

    def get_total_num_kv_heads(self) -> int:
        cfg = self.hf_config
        return cfg.get("num_key_value_heads", cfg["num_attention_heads"])

    def get_num_kv_heads(self, parallel_config: "ParallelConfig") -> int:
        total = self.get_total_num_kv_heads()
        return max(1, total // parallel_config.tensor_parallel_size)

    def get_num_layers(self, parallel_config: "ParallelConfig") -> int:
        total = self.hf_config["num_hidden_layers"]
        return total // parallel_config.pipeline_parallel_size


@dataclass
class CacheConfig:
    block_size: int = 16
    cache_dtype: str = "fp8_e4m3"
    gpu_memory_utilization: float = 0.90
    swap_space: float = 4.0  # GiB
    num_gpu_blocks: Optional[int] = None
    num_cpu_blocks: Optional[int] = None

    @property
    def swap_space_bytes(self) -> int:
        return int(self.swap_space * GiB_bytes)


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 4
    pipeline_parallel_size: int = 2
