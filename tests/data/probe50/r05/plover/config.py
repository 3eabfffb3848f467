from dataclasses import dataclass, fields
from functools import cached_property

import torch

_DTYPE_FACTORIES = {
    "bfloat16": lambda: torch.bfloat16,
    "float16": lambda: torch.float16,
    "float32": lambda: torch.float32,
    "fp8_e4m3": lambda: torch.float8_e4m3fn,
    "fp8_e5m2": lambda: torch.float8_e5m2,
}


def kv_dtype(name):
    return _DTYPE_FACTORIES[name]()


@dataclass
class Gemma2Config:
    hidden_size: int = 3584
    num_attention_heads: int = 16
    num_key_value_heads: int = 8
    num_hidden_layers: int = 42
    head_dim: int = 256
    sliding_window: int = 4096
    torch_dtype: str = "bfloat16"

    @classmethod
    def from_dict(cls, d):
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    @cached_property
    def layer_is_sliding(self):
        # Gemma-2 alternates local (sliding) and global attention, starting with local
        return [i % 2 == 0 for i in range(self.num_hidden_layers)]


@dataclass
class CacheArgs:
    max_num_tokens: int = 131072
    page_size: int = 32
    kv_cache_dtype: str = "auto"
    tp_size: int = 1
    offload_gib: float = 32.0
