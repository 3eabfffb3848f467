"""Static model / parallelism description loaded from the engine config.json."""
from dataclasses import dataclass

import torch


@dataclass
class ModelConfig:
    num_layers: int = 32
    num_heads: int = 32
    num_kv_heads: int = 8
    head_size: int = 128
    dtype: torch.dtype = torch.float16
    tp_size: int = 2
    tokens_per_block: int = 32
    max_blocks: int = 256
    host_blocks: int = 512
