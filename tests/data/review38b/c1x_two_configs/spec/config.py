from dataclasses import dataclass

import torch


@dataclass
class ModelConfig:
    num_kv_heads: int = 8
    head_dim: int = 128
    num_layers: int = 32
    max_tokens: int = 4096
    dtype: torch.dtype = torch.bfloat16


@dataclass
class DraftConfig:
    num_kv_heads: int = 4
    head_dim: int = 64
    num_layers: int = 1
    max_tokens: int = 4096
    dtype: torch.dtype = torch.float16
