"""Device token-to-KV pool for MLA models (one latent row per token, per layer)."""

import torch


class MLATokenToKVPool:
    def __init__(self, size, page_size, dtype, cfg, start_layer, end_layer, device="cuda"):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.store_dtype = torch.uint8 if dtype in (torch.float8_e4m3fn, torch.float8_e5m2) else dtype
        self.cfg = cfg
        self.start_layer = start_layer
        self.layer_num = end_layer - start_layer
        self.kv_cache_dim = cfg.kv_cache_dim
        # slot 0..page_size-1 is the padded dummy page used for writes of padded tokens
        num_slots = size + page_size
        self.kv_buffer = [
            torch.zeros((num_slots, 1, self.kv_cache_dim), dtype=self.store_dtype, device=device)
            for _ in range(self.layer_num)
        ]
        self.index_k_with_scale_buffer = [
            torch.zeros((num_slots // page_size, page_size * cfg.index_bytes_per_token),
                        dtype=torch.uint8, device=device)
            for _ in range(self.layer_num)
        ]

    def get_key_buffer(self, layer_id):
        return self.kv_buffer[layer_id - self.start_layer]

    def get_index_k_with_scale_buffer(self, layer_id):
        return self.index_k_with_scale_buffer[layer_id - self.start_layer]

    def set_mla_kv_buffer(self, layer_id, loc, cache_k):
        self.kv_buffer[layer_id - self.start_layer][loc] = cache_k.view(self.store_dtype)
