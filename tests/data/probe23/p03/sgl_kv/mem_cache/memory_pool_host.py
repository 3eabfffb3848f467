"""Host (CPU) tier for HiCache. Mirrors the device pool so pages can be
copied with one DMA per layer."""
import abc

import torch

from sgl_kv.mem_cache.memory_pool import NSA_INDEX_QUANT_BLOCK


class HostKVCache(abc.ABC):
    def __init__(self, device_pool, host_to_device_ratio, page_size, layout,
                 device="cpu"):
        self.device_pool = device_pool
        self.page_size = page_size
        self.layout = layout
        self.device = device
        self.dtype = device_pool.store_dtype
        self.layer_num = device_pool.layer_num
        self.size = int(device_pool.size * host_to_device_ratio)
        self.size = self.size - self.size % self.page_size
        self.page_num = self.size // self.page_size
        self.size_per_token = self.get_size_per_token()
        self.kv_buffer = self.init_kv_buffer()

    @abc.abstractmethod
    def get_size_per_token(self): ...

    @abc.abstractmethod
    def init_kv_buffer(self): ...


class MLATokenToKVPoolHost(HostKVCache):
    def __init__(self, device_pool, host_to_device_ratio, page_size, layout,
                 device="cpu"):
        self.kv_lora_rank = device_pool.kv_lora_rank
        self.qk_rope_head_dim = device_pool.qk_rope_head_dim
        super().__init__(device_pool, host_to_device_ratio, page_size, layout,
                         device)

    def get_size_per_token(self):
        return ((self.kv_lora_rank + self.qk_rope_head_dim) *
                self.dtype.itemsize * self.layer_num)

    def init_kv_buffer(self):
        if self.layout == "layer_first":
            dims = (self.layer_num, self.size, 1, self.kv_lora_rank)
        elif self.layout == "page_first":
            dims = (self.size, self.layer_num, 1, self.kv_lora_rank)
        else:
            raise ValueError(f"Unsupported layout: {self.layout}")
        return torch.empty(dims, dtype=self.dtype, device=self.device)


class NSATokenToKVPoolHost(MLATokenToKVPoolHost):
    def __init__(self, device_pool, host_to_device_ratio, page_size, layout,
                 device="cpu"):
        super().__init__(device_pool, host_to_device_ratio, page_size, layout,
                         device)
        d = device_pool.index_head_dim
        self.index_bytes_per_token = d + d // NSA_INDEX_QUANT_BLOCK * 4
        if layout == "layer_first":
            dims = (self.layer_num, self.page_num,
                    self.page_size * self.index_bytes_per_token)
        else:
            dims = (self.page_num, self.layer_num,
                    self.page_size * self.index_bytes_per_token)
        self.index_k_with_scale_buffer = torch.empty(
            dims, dtype=torch.uint8, device=self.device)
