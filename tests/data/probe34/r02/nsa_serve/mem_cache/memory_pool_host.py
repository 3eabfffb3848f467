"""Host (CPU) mirror of the NSA pool used by the hierarchical cache."""
import torch


class NSATokenToKVPoolHost:
    def __init__(self, device_pool, host_to_device_ratio=2.0, host_size=0,
                 page_size=64, pin_memory=True, device="cpu", quant_block_size=128):
        self.device_pool = device_pool
        self.page_size = page_size
        if host_size > 0:
            self.size = host_size
        else:
            self.size = int(device_pool.size * host_to_device_ratio)
        self.size = self.size // page_size * page_size
        self.num_pages = self.size // page_size
        self.layer_num = device_pool.layer_num
        self.dtype = device_pool.store_dtype
        self.kv_lora_rank = device_pool.kv_lora_rank
        self.qk_rope_head_dim = device_pool.qk_rope_head_dim
        self.index_head_dim = device_pool.index_head_dim
        self.quant_block_size = quant_block_size
        self.pin_memory = pin_memory

        self.kv_buffer = torch.empty(
            (self.layer_num, self.size, 1, self.kv_lora_rank + self.qk_rope_head_dim),
            dtype=self.dtype, device=device, pin_memory=pin_memory,
        )
        self.index_k_row_bytes = self.index_head_dim + self.index_head_dim // quant_block_size * 4
        self.index_k_buffer = torch.empty(
            (self.layer_num, self.num_pages, page_size * self.index_k_row_bytes),
            dtype=torch.uint8, device=device, pin_memory=pin_memory,
        )

    def backup_from_device_all_layer(self, host_indices, device_indices):
        for layer_id in range(self.layer_num):
            self.kv_buffer[layer_id, host_indices] = self.device_pool.kv_buffer[layer_id][device_indices].cpu()

    def load_to_device_per_layer(self, layer_id, host_indices, device_indices):
        dev = self.device_pool.kv_buffer[layer_id]
        dev[device_indices] = self.kv_buffer[layer_id, host_indices].to(dev.device, non_blocking=True)

    def backup_index_k(self, layer_id, host_pages, device_pages):
        src = self.device_pool.index_k_buffer[layer_id][device_pages]
        self.index_k_buffer[layer_id, host_pages] = src.reshape(len(device_pages), -1).view(torch.uint8).cpu()
