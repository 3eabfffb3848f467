from dataclasses import dataclass, field
import torch

@dataclass
class ModelConfig:
    num_layers: int
    num_kv_heads: int
    head_dim: int

@dataclass
class CacheConfig:
    dtype: torch.dtype = torch.bfloat16

@dataclass
class ServerConfig:
    model: ModelConfig
    cache: CacheConfig = field(default_factory=CacheConfig)
