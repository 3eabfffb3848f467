from dataclasses import dataclass

import torch


@dataclass
class CacheConfig:
    block_size: int
    num_gpu_blocks: int
    num_cpu_blocks: int
    quant_policy: int = 0


@dataclass
class ModelConfig:
    num_layers: int
    num_key_value_heads: int
    head_dim: int
    dtype: torch.dtype = torch.float16
