"""Device KV pool for MLA models with a DSA lightning-indexer key cache."""
import torch


class NSATokenToKVPool:
    """MLA latent cache plus the per-page index-K cache read by the indexer.

    This fork keeps the indexer keys un-quantized in bf16 so the top-k kernel
    can consume them directly.
    """

    def __init__(self, size, page_size, dtype, kv_lora_rank, qk_rope_head_dim,
                 layer_num, device, index_head_dim=128, index_k_dtype=torch.bfloat16):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.store_dtype = dtype
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.layer_num = layer_num
        self.device = device
        self.index_head_dim = index_head_dim
        self.index_k_dtype = index_k_dtype
        self.num_pages = size // page_size

        self.kv_buffer = [
            torch.zeros((size, 1, kv_lora_rank + qk_rope_head_dim), dtype=self.store_dtype, device=device)
            for _ in range(layer_num)
        ]
        self.index_k_buffer = [
            torch.zeros((self.num_pages, page_size, index_head_dim), dtype=index_k_dtype, device=device)
            for _ in range(layer_num)
        ]

    def get_key_buffer(self, layer_id):
        return self.kv_buffer[layer_id]

    def get_index_k_buffer(self, layer_id):
        return self.index_k_buffer[layer_id]

    def set_index_k(self, layer_id, loc, index_k):
        buf = self.index_k_buffer[layer_id].view(-1, self.index_head_dim)
        buf[loc] = index_k.to(self.index_k_dtype)

    def set_kv_buffer(self, layer_id, loc, cache_k):
        self.kv_buffer[layer_id][loc] = cache_k.to(self.store_dtype)
