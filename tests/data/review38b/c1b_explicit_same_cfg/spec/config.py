from dataclasses import dataclass

import torch


@dataclass
class ModelConfig:
    num_kv_heads: int = 8
    head_dim: int = 128
    num_layers: int = 32
    draft_kv_heads: int = 4
    draft_head_dim: int = 64
    draft_layers: int = 1
    max_tokens: int = 4096
