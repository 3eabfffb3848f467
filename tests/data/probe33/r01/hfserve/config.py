"""Cache configuration mirroring the fields read from a transformers PretrainedConfig."""

from dataclasses import dataclass

import torch


@dataclass
class CacheConfig:
    max_batch_size: int = 4
    max_cache_len: int = 4096
    num_hidden_layers: int = 32
    num_attention_heads: int = 32
    num_key_value_heads: int = 8
    head_dim: int = 128
    dtype: torch.dtype = torch.bfloat16
