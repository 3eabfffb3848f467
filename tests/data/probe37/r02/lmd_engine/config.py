"""Engine-level configuration for the PyTorch backend."""
from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class ModelConfig:
    """Subset of the HF config the cache needs."""

    hidden_size: int = 4096
    num_layers: int = 32
    num_attention_heads: int = 32
    num_key_value_heads: int = 8
    head_dim: Optional[int] = None
    dtype: torch.dtype = torch.float16

    def __post_init__(self):
        if self.head_dim is None:
            self.head_dim = self.hidden_size // self.num_attention_heads


@dataclass
class CacheConfig:
    """Paged cache settings.

    quant_policy: 0 keeps K/V in the model dtype, 4 packs two int4 codes per byte,
    8 stores int8 codes. Quantised caches keep an fp scale and zero point per
    (token, head).
    """

    block_size: int = 64
    num_gpu_blocks: int = 1024
    num_cpu_blocks: int = 256
    quant_policy: int = 0
    window_size: int = -1

    def __post_init__(self):
        if self.quant_policy not in (0, 4, 8):
            raise ValueError(f"invalid quant_policy {self.quant_policy}")
