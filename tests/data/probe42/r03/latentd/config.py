from dataclasses import dataclass
from typing import NamedTuple

import torch

@dataclass
class MLACacheConfig:
    num_layers: int = 27
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    qk_nope_head_dim: int = 128
    dtype: torch.dtype = torch.bfloat16
    max_tokens: int = 32768
    offload_tokens: int = 131072
    device: str = "cuda"
    offload_device: str = "cpu"

class LatentShape(NamedTuple):
    tokens: int
    heads: int
    dim: int

def latent_shape(tokens, cfg):
    # compressed kv (kv_lora_rank) followed by the decoupled rope key
    return LatentShape(tokens, 1, cfg.kv_lora_rank + cfg.qk_rope_head_dim)
