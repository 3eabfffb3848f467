from dataclasses import dataclass

import torch


def _itemsize(dtype: torch.dtype) -> int:
    return torch.empty((), dtype=dtype, device="meta").element_size()


@dataclass
class CacheSpec:
    num_hidden_layers: int = 6
    num_key_value_heads: int = 8
    head_size: int = 128
    tensor_parallel_size: int = 2
    block_size: int = 32
    cache_dtype: torch.dtype = torch.float8_e4m3fn
    scale_dtype: torch.dtype = torch.float32

    @property
    def kv_heads_local(self) -> int:
        assert self.num_key_value_heads % self.tensor_parallel_size == 0
        return self.num_key_value_heads // self.tensor_parallel_size

    @property
    def cache_itemsize(self) -> int:
        return _itemsize(self.cache_dtype)

    @property
    def scale_itemsize(self) -> int:
        return _itemsize(self.scale_dtype)
