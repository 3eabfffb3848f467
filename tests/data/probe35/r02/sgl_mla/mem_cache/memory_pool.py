import abc
from typing import List, Optional

import torch

from sgl_mla.mem_cache.utils import get_mla_cache_dim, get_store_dtype


class KVCache(abc.ABC):
    def __init__(self, size: int, page_size: int, dtype: torch.dtype,
                 layer_num: int, device: str, start_layer: Optional[int] = None):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.store_dtype = get_store_dtype(dtype)
        self.layer_num = layer_num
        self.device = device
        self.start_layer = start_layer or 0
        self.end_layer = self.start_layer + layer_num - 1

    @abc.abstractmethod
    def get_key_buffer(self, layer_id: int) -> torch.Tensor: ...

    @abc.abstractmethod
    def get_kv_size_bytes(self) -> int: ...


class MLATokenToKVPool(KVCache):
    def __init__(self, size: int, page_size: int, dtype: torch.dtype,
                 kv_lora_rank: int, qk_rope_head_dim: int, layer_num: int,
                 device: str, start_layer: Optional[int] = None):
        super().__init__(size, page_size, dtype, layer_num, device, start_layer)
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.kv_cache_dim = get_mla_cache_dim(kv_lora_rank, qk_rope_head_dim)
        # The padded slot 0 is used for writing dummy outputs from padded tokens.
        self.kv_buffer: List[torch.Tensor] = [
            torch.zeros((size + page_size, 1, self.kv_cache_dim),
                        dtype=self.store_dtype, device=device)
            for _ in range(layer_num)
        ]

    def get_key_buffer(self, layer_id: int) -> torch.Tensor:
        buf = self.kv_buffer[layer_id - self.start_layer]
        return buf.view(self.dtype) if self.store_dtype != self.dtype else buf

    def get_value_buffer(self, layer_id: int) -> torch.Tensor:
        return self.get_key_buffer(layer_id)[..., : self.kv_lora_rank]

    def get_kv_size_bytes(self) -> int:
        return sum(t.numel() * t.element_size() for t in self.kv_buffer)

    def set_mla_kv_buffer(self, layer_id, loc, cache_k_nope, cache_k_rope):
        buf = self.kv_buffer[layer_id - self.start_layer]
        buf[loc, :, : self.kv_lora_rank] = cache_k_nope.to(self.dtype).view(self.store_dtype)
        buf[loc, :, self.kv_lora_rank:] = cache_k_rope.to(self.dtype).view(self.store_dtype)
