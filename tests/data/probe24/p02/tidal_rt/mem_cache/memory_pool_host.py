import torch

from tidal_rt.mem_cache.memory_pool import MLATokenToKVPool


class MLATokenToKVPoolHost:
    """Host (HiCache L2) mirror of the MLA device pool, layer-first layout."""

    def __init__(self, device_pool: MLATokenToKVPool, host_to_device_ratio: float,
                 device: str = "cpu", pin_memory: bool = False) -> None:
        self.page_size = device_pool.page_size
        self.layer_num = device_pool.layer_num
        self.dtype = device_pool.store_dtype
        self.kv_lora_rank = device_pool.kv_lora_rank
        self.qk_rope_head_dim = device_pool.qk_rope_head_dim
        self.index_head_dim = device_pool.index_head_dim

        size = int(device_pool.size * host_to_device_ratio)
        self.size = size - size % self.page_size
        self.num_pages = self.size // self.page_size

        self.kv_buffer = torch.empty(
            (self.layer_num, self.size, 1, self.kv_lora_rank + self.qk_rope_head_dim),
            dtype=self.dtype, device=device, pin_memory=pin_memory)
        # indexer keys are fp8, one byte per channel
        self.index_k_with_scale_buffer = torch.empty(
            (self.layer_num, self.num_pages, self.page_size * self.index_head_dim),
            dtype=torch.uint8, device=device, pin_memory=pin_memory)

    def backup_from_device_all_layer(self, device_pool, host_indices, device_indices):
        for layer_id in range(self.layer_num):
            self.kv_buffer[layer_id, host_indices] = device_pool.kv_buffer[layer_id][device_indices].to(
                self.kv_buffer.device)
