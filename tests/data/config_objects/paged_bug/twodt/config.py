from dataclasses import dataclass
import torch

@dataclass
class ServingConfig:
    num_hidden_layers: int
    num_key_value_heads: int
    head_dim: int
    torch_dtype: torch.dtype          # model weights
    kv_cache_dtype: torch.dtype       # may be fp8
    page_size: int = 16
