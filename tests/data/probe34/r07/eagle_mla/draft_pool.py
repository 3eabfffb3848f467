"""KV pool for the EAGLE/MTP draft head.

The draft layers reuse the target's page table, so the pool is addressed by
the same (page, offset) pairs and holds one latent row per token per draft
layer.
"""
import torch

from .layout import paged_latent_shape


def draft_layer_ids(cfg):
    first = cfg.num_hidden_layers
    return list(range(first, first + cfg.num_nextn_predict_layers))


class EagleDraftKVPool:
    def __init__(self, target_pool, cfg, device="cuda"):
        self.layer_ids = draft_layer_ids(cfg)
        self.start_layer = self.layer_ids[0]
        self.num_pages = target_pool.num_pages
        self.page_size = target_pool.page_size
        self.dtype = cfg.torch_dtype
        shape = paged_latent_shape(len(self.layer_ids), self.num_pages, self.page_size, cfg.kv_lora_rank)
        self.kv_buffer = torch.empty(shape, dtype=self.dtype, device=device)

    def get_layer(self, layer_id):
        return self.kv_buffer[layer_id - self.start_layer]

    def copy_from_target(self, target_pool, src_layer, page_ids):
        self.kv_buffer[0, page_ids] = target_pool.get_layer(src_layer)[page_ids]
