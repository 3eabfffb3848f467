from dataclasses import dataclass, field

import torch

DTYPES = {
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "fp32": torch.float32,
}


@dataclass
class ModelSpec:
    n_layers: int = 32
    kv_heads: int = 8
    head_dim: int = 128


@dataclass
class CacheSpec:
    dtype: str = "bf16"
    max_tokens: int = 65536
    cpu_ratio: float = 2.0


@dataclass
class ServeConfig:
    model: ModelSpec = field(default_factory=ModelSpec)
    cache: CacheSpec = field(default_factory=CacheSpec)
