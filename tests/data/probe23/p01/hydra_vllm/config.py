# SPDX-License-Identifier: Apache-2.0
"""Engine configuration (trimmed copy of the upstream vLLM config objects)."""
from dataclasses import dataclass, field
from typing import Any, Optional

import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.float16,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float32,
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 2
    pipeline_parallel_size: int = 1


@dataclass
class ModelConfig:
    model: str = "hydra/qwen2.5-7b-instruct"
    dtype: str = "bfloat16"
    hf_config: dict = field(default_factory=lambda: {
        "hidden_size": 3584,
        "num_attention_heads": 28,
        "num_key_value_heads": 4,
        "num_hidden_layers": 28,
        "max_position_embeddings": 32768,
    })

    def get_head_size(self) -> int:
        if "head_dim" in self.hf_config:
            return self.hf_config["head_dim"]
        return self.hf_config["hidden_size"] // self.hf_config["num_attention_heads"]

    def get_total_num_kv_heads(self) -> int:
        return self.hf_config.get("num_key_value_heads",
                                  self.hf_config["num_attention_heads"])

    def get_num_kv_heads(self, parallel_config: ParallelConfig) -> int:
        # If tp > num kv heads the heads are replicated, never less than one.
        return max(1, self.get_total_num_kv_heads() //
                   parallel_config.tensor_parallel_size)

    def get_num_layers(self, parallel_config: ParallelConfig) -> int:
        return (self.hf_config["num_hidden_layers"] //
                parallel_config.pipeline_parallel_size)


@dataclass
class CacheConfig:
    block_size: int = 16
    cache_dtype: str = "fp8"
    gpu_memory_utilization: float = 0.9
    num_gpu_blocks_override: Optional[int] = None


@dataclass
class KVTransferConfig:
    kv_connector: str = "CPUOffloadConnector"
    kv_role: str = "kv_both"
    kv_connector_extra_config: dict[str, Any] = field(
        default_factory=lambda: {"cpu_bytes_to_use": 8 << 30})


@dataclass
class VllmConfig:
    model_config: ModelConfig = field(default_factory=ModelConfig)
    cache_config: CacheConfig = field(default_factory=CacheConfig)
    parallel_config: ParallelConfig = field(default_factory=ParallelConfig)
    kv_transfer_config: Optional[KVTransferConfig] = field(
        default_factory=KVTransferConfig)
    device: str = "cuda"
