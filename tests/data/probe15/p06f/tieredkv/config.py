from dataclasses import dataclass, field

import torch


@dataclass
class ModelShape:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128


@dataclass
class CacheSpec:
    max_tokens: int = 200_000
    host_tokens: int = 800_000
    quantized: bool = False
    dtype: torch.dtype = torch.bfloat16


@dataclass
class ServingConfig:
    model: ModelShape = field(default_factory=ModelShape)
    cache: CacheSpec = field(default_factory=CacheSpec)
