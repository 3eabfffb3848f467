from dataclasses import dataclass, field

import torch


@dataclass
class ModelDims:
    num_layers: int = 40
    num_kv_heads: int = 8
    head_dim: int = 128


@dataclass
class OspreyConfig:
    dims: ModelDims = field(default_factory=ModelDims)
    cache_dtype: torch.dtype = torch.float16
    gpu_tokens: int = 65536
    swap_space_gb: float = 4.0
    tp_size: int = 1
