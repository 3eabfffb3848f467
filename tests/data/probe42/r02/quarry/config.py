import torch


class EngineArgs:
    """Plain-class server arguments; every field has a class-level default."""

    num_layers = 32
    num_kv_heads = 8
    head_dim = 128
    dtype = torch.bfloat16
    kv_cache_dtype = "fp8_e5m2"
    max_total_tokens = 65536
    host_factor = 2
    host_mode = "pinned"
    device = "cuda"
    host_device = "cpu"

    def __init__(self, **overrides):
        for key, value in overrides.items():
            if not hasattr(type(self), key):
                raise TypeError(f"unknown engine arg {key!r}")
            setattr(self, key, value)
