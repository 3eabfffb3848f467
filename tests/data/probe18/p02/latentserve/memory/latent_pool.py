import torch


class LatentCachePool:
    """Compressed-KV (latent + decoupled rope key) token pool on device."""

    def __init__(self, capacity, dtype, kv_lora_rank, qk_rope_head_dim,
                 start_layer, end_layer, page_size=1, device="cuda"):
        self.capacity = capacity
        self.dtype = dtype
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.start_layer = start_layer
        self.end_layer = end_layer
        self.page_size = page_size
        self.device = device
        self.latent_width = kv_lora_rank + qk_rope_head_dim
        # slot 0..page_size-1 is reserved as the padding page
        self.latent_buffer = [
            torch.zeros((capacity + page_size, 1, self.latent_width), dtype=dtype, device=device)
            for _ in range(start_layer, end_layer)
        ]

    def get_key_buffer(self, layer_id):
        return self.latent_buffer[layer_id - self.start_layer]

    def get_value_buffer(self, layer_id):
        return self.latent_buffer[layer_id - self.start_layer][..., : self.kv_lora_rank]
