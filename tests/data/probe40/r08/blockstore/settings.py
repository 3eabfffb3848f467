from dataclasses import dataclass

import torch


@dataclass
class EngineSettings:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    dtype: torch.dtype = torch.bfloat16
    block_size: int = 32
    num_gpu_blocks: int = 8192
    num_host_blocks: int = 16384
    tp_size: int = 1
