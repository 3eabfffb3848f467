from dataclasses import dataclass
import torch

@dataclass
class MLAConfig:
    num_hidden_layers: int
    kv_lora_rank: int
    qk_rope_head_dim: int
    kv_cache_dtype: torch.dtype
