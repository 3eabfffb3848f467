"""Paged KV pool backed by one flat byte allocation, viewed per layer."""

import torch

from .config import DTYPES, layer_range


class PagedKVPool:
    def __init__(self, cfg, device="cuda"):
        model, cache = cfg["model"], cfg["cache"]
        self.start_layer, self.end_layer = layer_range(cfg)
        self.num_local_layers = self.end_layer - self.start_layer
        self.page_size = cache["page_size"]
        self.num_pages = cache["num_pages"]
        self.num_heads = model["num_key_value_heads"]
        self.head_dim = model["head_dim"]
        self.kv_dtype = DTYPES[cache["kv_dtype"]]

        token_elems = 2 * self.num_heads * self.head_dim
        self.layer_nbytes = self.num_pages * self.page_size * token_elems * self.kv_dtype.itemsize
        self.kv_data = torch.empty(self.num_local_layers * self.layer_nbytes, dtype=torch.uint8, device=device)
        self.kv_scales = torch.empty(
            (self.num_local_layers, self.num_pages, self.page_size, 2, self.num_heads),
            dtype=DTYPES[cache["scale_dtype"]],
            device=device,
        )

    def layer_view(self, layer_id):
        """(num_pages, page_size, 2, heads, head_dim) view of a global layer id."""
        off = (layer_id - self.start_layer) * self.layer_nbytes
        raw = self.kv_data[off:off + self.layer_nbytes]
        return raw.view(self.kv_dtype).view(self.num_pages, self.page_size, 2, self.num_heads, self.head_dim)

    def layer_scales(self, layer_id):
        return self.kv_scales[layer_id - self.start_layer]
