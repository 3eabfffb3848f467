"""Model and cache configuration."""
from dataclasses import dataclass


class ModelConfig:
    """Subset of an HF config; `head_dim` is explicit (it differs from hidden/heads)."""

    def __init__(self, num_hidden_layers=3, hidden_size=384, num_attention_heads=8,
                 num_key_value_heads=8, head_dim=64):
        self.num_hidden_layers = num_hidden_layers
        self.hidden_size = hidden_size
        self.num_attention_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.head_dim = head_dim


@dataclass
class CacheConfig:
    cache_dtype: str = "int8"
    max_tokens: int = 80
    offload_bytes: int = 200_000
    layout: str = "nhd"
    tp_size: int = 2

    @property
    def quantized(self):
        return self.cache_dtype == "int8"
