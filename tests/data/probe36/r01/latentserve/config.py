from dataclasses import dataclass

import torch


@dataclass
class ModelConfig:
    """Subset of a DeepSeek-V2-Lite style config used by the memory pools."""

    num_hidden_layers: int = 27
    hidden_size: int = 2048
    num_attention_heads: int = 16
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    qk_nope_head_dim: int = 128
    v_head_dim: int = 128
    dtype: torch.dtype = torch.bfloat16


@dataclass
class ServerArgs:
    kv_cache_dtype: str = "fp8_e4m3"
    max_total_tokens: int = 131072
    page_size: int = 64
    enable_hierarchical_cache: bool = True
    hicache_ratio: float = 2.0
    hicache_size: int = 0
