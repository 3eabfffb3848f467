from typing import Callable, Dict, NamedTuple, Tuple

import torch

_DTYPE_TABLE = {
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "e4m3_float8": torch.float8_e4m3fn,
    "e5m2_float8": torch.float8_e5m2,
}


class PagedKVCacheSpec(NamedTuple):
    num_hidden_layers: int
    num_key_value_heads: int
    head_dim: int
    page_size: int
    dtype: str

    @property
    def torch_dtype(self) -> torch.dtype:
        return _DTYPE_TABLE[self.dtype]

    def page_shape(self, num_pages: int) -> Tuple[int, ...]:
        # [num_pages, 2 (k/v), num_heads, page_size, head_dim]
        return (num_pages, 2, self.num_key_value_heads, self.page_size, self.head_dim)


_REGISTRY: Dict[str, Callable] = {}


def register_kv_cache(kind: str):
    def deco(cls):
        _REGISTRY[kind] = cls
        return cls
    return deco


def create_kv_cache(kind: str, *args, **kwargs):
    return _REGISTRY[kind](*args, **kwargs)
