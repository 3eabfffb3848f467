"""Device-side token -> KV pools (MLA flavour, plus the NSA indexer keys)."""
import abc

import torch

NSA_INDEX_QUANT_BLOCK = 128  # one fp32 scale per 128 fp8 index values


class KVCache(abc.ABC):
    def __init__(self, size, page_size, dtype, layer_num, device):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.layer_num = layer_num
        self.device = device
        if dtype in (torch.float8_e5m2, torch.float8_e4m3fn):
            # index_put is not implemented for fp8, store as uint8
            self.store_dtype = torch.uint8
        else:
            self.store_dtype = dtype


class MLATokenToKVPool(KVCache):
    def __init__(self, size, page_size, dtype, kv_lora_rank, qk_rope_head_dim,
                 layer_num, device):
        super().__init__(size, page_size, dtype, layer_num, device)
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.kv_cache_dim = kv_lora_rank + qk_rope_head_dim
        self._create_buffers()

    def _create_buffers(self):
        # slot 0..page_size-1 is the padded dummy page
        self.kv_buffer = [
            torch.zeros((self.size + self.page_size, 1, self.kv_cache_dim),
                        dtype=self.store_dtype, device=self.device)
            for _ in range(self.layer_num)
        ]

    def get_key_buffer(self, layer_id):
        return self.kv_buffer[layer_id]


class NSATokenToKVPool(MLATokenToKVPool):
    def __init__(self, size, page_size, dtype, kv_lora_rank, qk_rope_head_dim,
                 layer_num, device, index_head_dim):
        self.index_head_dim = index_head_dim
        super().__init__(size, page_size, dtype, kv_lora_rank, qk_rope_head_dim,
                         layer_num, device)
        num_pages = (self.size + self.page_size) // self.page_size
        self.index_k_with_scale_buffer = [
            torch.zeros((num_pages, self.page_size * (
                index_head_dim + index_head_dim // NSA_INDEX_QUANT_BLOCK * 4)),
                dtype=torch.uint8, device=self.device)
            for _ in range(layer_num)
        ]
