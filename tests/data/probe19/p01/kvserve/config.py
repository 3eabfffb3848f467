from dataclasses import dataclass

import torch

_DTYPES = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float32": torch.float32,
    "fp8_e4m3": torch.float8_e4m3fn,
}


@dataclass
class CacheConfig:
    num_layers: int = 32
    kv_heads: int = 8
    head_dim: int = 128
    max_slots: int = 131072
    dtype: str = "bfloat16"
    host_ratio: float = 2.0
    tp_size: int = 1

    @property
    def torch_dtype(self) -> torch.dtype:
        return _DTYPES[self.dtype]

    @property
    def local_kv_heads(self) -> int:
        return max(1, self.kv_heads // self.tp_size)
