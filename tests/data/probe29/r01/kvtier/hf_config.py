"""Config objects the cache layer consumes.

`LlamaLikeConfig` mimics the handful of `transformers.PretrainedConfig`
attributes we read; `ServerArgs` is the launcher-side knob set.
"""
from dataclasses import dataclass

import torch


class LlamaLikeConfig:
    model_type = "llama"

    def __init__(self, hidden_size=256, num_hidden_layers=3, num_attention_heads=8,
                 num_key_value_heads=4, torch_dtype=torch.bfloat16,
                 max_position_embeddings=2048, **extra):
        self.hidden_size = hidden_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.torch_dtype = torch_dtype
        self.max_position_embeddings = max_position_embeddings
        for key, value in extra.items():
            setattr(self, key, value)

    def get_head_dim(self):
        return getattr(self, "head_dim", self.hidden_size // self.num_attention_heads)


@dataclass
class ServerArgs:
    tp_size: int = 2
    max_total_tokens: int = 64
    kv_cache_dtype: str = "auto"
    enable_offload: bool = True
    offload_ratio: float = 2.0


_FP8 = {
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


def resolve_kv_dtype(kv_cache_dtype, model_config):
    """Map the --kv-cache-dtype string to the torch dtype the device pool uses."""
    if kv_cache_dtype == "auto":
        return model_config.torch_dtype
    if kv_cache_dtype in _FP8:
        return _FP8[kv_cache_dtype]
    return getattr(torch, kv_cache_dtype)
