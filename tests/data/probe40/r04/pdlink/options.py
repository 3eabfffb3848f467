"""KV options shared by the prefill and decode instances of a P/D pair."""
import torch

_DTYPE_BY_NAME = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "fp8_e4m3": torch.float8_e4m3fn,
}


class KVOptions:
    num_layers = 28
    kv_heads = 4
    head_dim = 128
    page_size = 64
    tp_size = 2  # reference deployment: each instance spans 2 GPUs
    dtype = "bfloat16"
    num_pages = 2048

    def __init__(self, **overrides):
        for key, value in overrides.items():
            if not hasattr(type(self), key):
                raise TypeError(f"unknown kv option {key!r}")
            setattr(self, key, value)

    @property
    def torch_dtype(self) -> torch.dtype:
        return _DTYPE_BY_NAME[self.dtype]

    @property
    def kv_heads_per_rank(self) -> int:
        return max(1, self.kv_heads // self.tp_size)
