import abc
from typing import List, Optional

import torch

_FP8_DTYPES = (torch.float8_e4m3fn, torch.float8_e5m2)


def resolve_kv_cache_dtype(kv_cache_dtype: str, model_dtype: torch.dtype) -> torch.dtype:
    if kv_cache_dtype == "auto":
        return model_dtype
    if kv_cache_dtype in ("fp8_e5m2",):
        return torch.float8_e5m2
    if kv_cache_dtype in ("fp8_e4m3", "fp8"):
        return torch.float8_e4m3fn
    if kv_cache_dtype in ("bf16", "bfloat16"):
        return torch.bfloat16
    raise ValueError(f"Unsupported kv_cache_dtype: {kv_cache_dtype}")


class KVCache(abc.ABC):
    def __init__(
        self,
        size: int,
        page_size: int,
        dtype: torch.dtype,
        layer_num: int,
        device: str,
        start_layer: Optional[int] = None,
        end_layer: Optional[int] = None,
    ):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.device = device
        self.layer_num = layer_num
        self.start_layer = start_layer or 0
        self.end_layer = end_layer or layer_num - 1
        if dtype in _FP8_DTYPES:
            # index_put is not implemented for fp8, keep the raw bytes instead
            self.store_dtype = torch.uint8
        else:
            self.store_dtype = dtype

    @abc.abstractmethod
    def get_key_buffer(self, layer_id: int) -> torch.Tensor:
        raise NotImplementedError()

    @abc.abstractmethod
    def get_value_buffer(self, layer_id: int) -> torch.Tensor:
        raise NotImplementedError()

    @abc.abstractmethod
    def get_kv_size_bytes(self) -> int:
        raise NotImplementedError()


class MLATokenToKVPool(KVCache):
    def __init__(
        self,
        size: int,
        page_size: int,
        dtype: torch.dtype,
        kv_lora_rank: int,
        qk_rope_head_dim: int,
        layer_num: int,
        device: str,
        start_layer: Optional[int] = None,
        end_layer: Optional[int] = None,
    ):
        super().__init__(size, page_size, dtype, layer_num, device, start_layer, end_layer)
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.kv_cache_dim = kv_lora_rank + qk_rope_head_dim
        self._create_buffers()

    def _create_buffers(self):
        # The padded slot 0 is used for writing dummy outputs from padded tokens.
        self.kv_buffer: List[torch.Tensor] = [
            torch.zeros(
                (self.size + self.page_size, 1, self.kv_cache_dim),
                dtype=self.store_dtype,
                device=self.device,
            )
            for _ in range(self.layer_num)
        ]

    def get_key_buffer(self, layer_id: int) -> torch.Tensor:
        buf = self.kv_buffer[layer_id - self.start_layer]
        if self.store_dtype != self.dtype:
            return buf.view(self.dtype)
        return buf

    def get_value_buffer(self, layer_id: int) -> torch.Tensor:
        return self.get_key_buffer(layer_id)[..., : self.kv_lora_rank]

    def get_kv_size_bytes(self) -> int:
        return sum(b.nbytes for b in self.kv_buffer)
