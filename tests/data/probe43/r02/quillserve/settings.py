import torch


class QuantKVSettings:
    """Lightweight settings object; unknown keys are rejected."""

    num_hidden_layers = 12
    kv_heads = 8
    head_dim = 128
    storage_dtype = "float8_e4m3fn"
    scale_dtype = "float32"
    scale_group = 128
    max_tokens = 8192
    offload_tokens = 16384
    accel_device = "cuda"
    host_device = "cpu"

    def __init__(self, **overrides):
        for key, val in overrides.items():
            if not hasattr(type(self), key):
                raise TypeError(f"unknown setting {key}")
            setattr(self, key, val)
        if self.head_dim % self.scale_group:
            raise ValueError("head_dim must be a multiple of scale_group")

    def torch_dtype(self, which: str) -> torch.dtype:
        return getattr(torch, getattr(self, which))
