import abc
import logging

import torch

from .mem_pool import MLATokenToKVPool

logger = logging.getLogger(__name__)

_HOST_STORE_DTYPES = {
    "auto": None,
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "fp8": torch.uint8,
    "fp8_e5m2": torch.uint8,
}


def host_store_dtype(kv_cache_dtype: str, model_dtype: torch.dtype) -> torch.dtype:
    return _HOST_STORE_DTYPES.get(kv_cache_dtype) or model_dtype


class HostKVCache(abc.ABC):
    def __init__(self, device_pool, host_to_device_ratio: float, host_size: int, page_size: int, device: str):
        self.device_pool = device_pool
        self.page_size = page_size
        self.layer_num = device_pool.layer_num
        self.start_layer = device_pool.start_layer
        if host_size > 0:
            self.size = int(host_size * 1e9 // self.get_size_per_token())
        else:
            self.size = int(device_pool.size * host_to_device_ratio)
        self.size = self.size - (self.size % self.page_size)
        self.pin_memory = device != "meta"
        self.device = "cpu" if device != "meta" else "meta"
        logger.info("Allocating %d host tokens for the hierarchical cache", self.size)
        self.kv_buffer = self.init_kv_buffer()

    @abc.abstractmethod
    def get_size_per_token(self) -> int:
        raise NotImplementedError()

    @abc.abstractmethod
    def init_kv_buffer(self) -> torch.Tensor:
        raise NotImplementedError()


class MLATokenToKVPoolHost(HostKVCache):
    def __init__(
        self,
        device_pool: MLATokenToKVPool,
        kv_cache_dtype: str,
        model_dtype: torch.dtype,
        host_to_device_ratio: float,
        host_size: int,
        page_size: int,
        device: str = "cpu",
    ):
        self.kv_lora_rank = device_pool.kv_lora_rank
        self.qk_rope_head_dim = device_pool.qk_rope_head_dim
        self.dtype = host_store_dtype(kv_cache_dtype, model_dtype)
        super().__init__(device_pool, host_to_device_ratio, host_size, page_size, device)

    def get_size_per_token(self) -> int:
        dim = self.kv_lora_rank + self.qk_rope_head_dim
        return dim * self.dtype.itemsize * self.layer_num

    def init_kv_buffer(self) -> torch.Tensor:
        # layer-first layout, one contiguous block per layer
        return torch.empty(
            (self.layer_num, self.size, 1, self.kv_lora_rank + self.qk_rope_head_dim),
            dtype=self.dtype,
            device=self.device,
            pin_memory=self.pin_memory,
        )

    def get_flat_data(self, indices: torch.Tensor) -> torch.Tensor:
        return self.kv_buffer[:, indices]
