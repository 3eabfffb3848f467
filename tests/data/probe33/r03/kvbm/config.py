"""Block manager configuration."""

from dataclasses import dataclass

import torch


@dataclass
class KvbmConfig:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    block_size: int = 16
    num_device_blocks: int = 2048
    num_host_blocks: int = 8192
    tp_size: int = 2
    dtype: torch.dtype = torch.bfloat16
