import torch

from . import register_pool


@register_pool("mla_device")
class LatentTokenPool:
    """Compressed-KV (latent + rope) pool for MLA models."""

    def __init__(self, size, page_size, dtype, kv_lora_rank, qk_rope_head_dim, layer_num, device):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        # fp8 variants are stored as raw bytes so index_put works
        if dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
            self.store_dtype = torch.uint8
        else:
            self.store_dtype = dtype
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.layer_num = layer_num
        self.kv_cache_dim = kv_lora_rank + qk_rope_head_dim
        self.kv_buffer = [
            torch.zeros((size + page_size, 1, self.kv_cache_dim), dtype=self.store_dtype, device=device)
            for _ in range(layer_num)
        ]

    def get_key_buffer(self, layer_id):
        buf = self.kv_buffer[layer_id]
        if self.store_dtype != self.dtype:
            return buf.view(self.dtype)
        return buf
