"""Host pool for hierarchical caching, laid out page first: (pages, layers, page_size, ...)."""

import torch


class MLATokenToKVPoolHost:
    def __init__(self, device_pool, host_to_device_ratio=2.0, layout="page_first", device="cpu"):
        cfg = device_pool.cfg
        self.page_size = device_pool.page_size
        self.layer_num = device_pool.layer_num
        self.start_layer = device_pool.start_layer
        self.dtype = device_pool.store_dtype
        self.layout = layout
        size = int(device_pool.size * host_to_device_ratio)
        self.size = size - size % self.page_size
        self.page_num = self.size // self.page_size
        self.kv_cache_dim = cfg.latent_dim
        self.index_bytes = cfg.index_bytes_per_token
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        if layout == "page_first":
            kv_shape = (self.page_num, self.layer_num, self.page_size, 1, self.kv_cache_dim)
            idx_shape = (self.page_num, self.layer_num, self.page_size * self.index_bytes)
        elif layout == "layer_first":
            kv_shape = (self.layer_num, self.size, 1, self.kv_cache_dim)
            idx_shape = (self.layer_num, self.page_num, self.page_size * self.index_bytes)
        else:
            raise ValueError(f"unsupported layout {layout}")
        self.kv_buffer = torch.empty(kv_shape, dtype=self.dtype, device=device, pin_memory=pin)
        self.index_k_with_scale_buffer = torch.empty(idx_shape, dtype=torch.uint8, device=device, pin_memory=pin)

    def backup_from_device_per_layer(self, device_pool, host_indices, device_indices, layer_id):
        """Copy whole pages of one layer; indices are token indices aligned to page starts."""
        i = layer_id - self.start_layer
        src = device_pool.get_key_buffer(layer_id)
        for h, d in zip(host_indices[::self.page_size].tolist(), device_indices[::self.page_size].tolist()):
            page = h // self.page_size
            self.kv_buffer[page, i].copy_(src[d:d + self.page_size])
            self.index_k_with_scale_buffer[page, i].copy_(
                device_pool.get_index_k_with_scale_buffer(layer_id)[d // self.page_size])

    def load_to_device_per_layer(self, device_pool, host_indices, device_indices, layer_id):
        i = layer_id - self.start_layer
        dst = device_pool.get_key_buffer(layer_id)
        for h, d in zip(host_indices[::self.page_size].tolist(), device_indices[::self.page_size].tolist()):
            page = h // self.page_size
            dst[d:d + self.page_size].copy_(self.kv_buffer[page, i])
            device_pool.get_index_k_with_scale_buffer(layer_id)[d // self.page_size].copy_(
                self.index_k_with_scale_buffer[page, i])
