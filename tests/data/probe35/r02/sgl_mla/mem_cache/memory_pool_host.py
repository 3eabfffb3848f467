import abc
import logging

import torch

from sgl_mla.mem_cache.memory_pool import MLATokenToKVPool
from sgl_mla.mem_cache.utils import align_to_page, get_mla_cache_dim

logger = logging.getLogger(__name__)


class HostKVCache(abc.ABC):
    def __init__(self, device_pool, host_to_device_ratio: float, host_size: int,
                 page_size: int, layout: str, pin_memory: bool, device: str):
        self.device_pool = device_pool
        self.dtype = device_pool.store_dtype
        self.page_size = page_size
        self.layout = layout
        self.pin_memory = pin_memory
        self.device = device
        self.layer_num = device_pool.layer_num
        self.size_per_token = self.get_size_per_token()
        if host_size > 0:
            self.size = int(host_size * 1e9 // self.size_per_token)
        else:
            self.size = int(device_pool.size * host_to_device_ratio)
        self.size = align_to_page(self.size, self.page_size)
        self.page_num = self.size // self.page_size
        logger.info("Allocating %.2f GB host memory for hierarchical KV cache.",
                    self.size * self.size_per_token / 1e9)
        self.kv_buffer = self.init_kv_buffer()

    @abc.abstractmethod
    def get_size_per_token(self) -> int: ...

    @abc.abstractmethod
    def init_kv_buffer(self) -> torch.Tensor: ...


class MLATokenToKVPoolHost(HostKVCache):
    device_pool: MLATokenToKVPool

    def __init__(self, device_pool: MLATokenToKVPool, host_to_device_ratio: float,
                 host_size: int, page_size: int, layout: str = "layer_first",
                 pin_memory: bool = True, device: str = "cpu"):
        self.kv_lora_rank = device_pool.kv_lora_rank
        self.qk_rope_head_dim = device_pool.qk_rope_head_dim
        self.kv_cache_dim = get_mla_cache_dim(device_pool.kv_lora_rank)
        super().__init__(device_pool, host_to_device_ratio, host_size, page_size,
                         layout, pin_memory, device)

    def get_size_per_token(self) -> int:
        return self.kv_cache_dim * self.dtype.itemsize * self.layer_num

    def init_kv_buffer(self) -> torch.Tensor:
        if self.layout == "layer_first":
            dims = (self.layer_num, self.size, 1, self.kv_cache_dim)
        elif self.layout == "page_first":
            dims = (self.size, self.layer_num, 1, self.kv_cache_dim)
        else:
            raise ValueError(f"Unsupported layout: {self.layout}")
        return torch.empty(dims, dtype=self.dtype, device=self.device,
                           pin_memory=self.pin_memory)

    def backup_from_device_all_layer(self, device_pool, host_indices, device_indices):
        for i in range(self.layer_num):
            self.kv_buffer[i, host_indices] = device_pool.kv_buffer[i][device_indices].to(self.device)
