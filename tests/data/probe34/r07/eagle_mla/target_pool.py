"""Paged MLA latent pool for the target model (one PP stage)."""
import torch

from .layout import latent_width, paged_latent_shape


class MLAPagedKVPool:
    def __init__(self, num_pages, page_size, layer_range, kv_lora_rank, qk_rope_head_dim,
                 dtype=torch.bfloat16, device="cuda"):
        self.num_pages = num_pages
        self.page_size = page_size
        self.start_layer, self.end_layer = layer_range
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.dtype = dtype
        width = latent_width(kv_lora_rank, qk_rope_head_dim)
        shape = paged_latent_shape(self.end_layer - self.start_layer, num_pages, page_size, width)
        self.kv_buffer = torch.empty(shape, dtype=dtype, device=device)

    def get_layer(self, layer_id):
        return self.kv_buffer[layer_id - self.start_layer]

    def set_latent(self, layer_id, page_ids, offsets, latent):
        self.get_layer(layer_id)[page_ids, offsets] = latent.to(self.dtype)
