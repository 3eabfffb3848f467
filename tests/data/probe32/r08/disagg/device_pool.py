"""Paged device KV pool for this pipeline stage, plus the sparse-attention indexer cache."""
import torch

from .spec import PoolSpec


class PagedKVPool:
    """Per local layer:

    * ``k_pages`` / ``v_pages``: ``[num_pages, page_size, kv_heads, head_dim]``
    * ``index_k_pages``: ``[num_pages, page_size * index_head_dim + page_size * n_blocks * 4]`` bytes,
      the fp8 index keys of a page followed by their fp32 scales.
    """

    def __init__(self, spec: PoolSpec, device="cuda"):
        self.spec = spec
        self.layers = spec.layer_range
        self.num_pages = spec.num_pages
        self.page_size = spec.page_size
        kv_shape = (spec.num_pages, spec.page_size, spec.kv_heads, spec.head_dim)
        n_blocks = spec.index_head_dim // spec.index_quant_block
        index_page_bytes = spec.page_size * spec.index_head_dim + spec.page_size * n_blocks * 4
        self.k_pages = [torch.empty(kv_shape, dtype=spec.torch_dtype, device=device) for _ in self.layers]
        self.v_pages = [torch.empty(kv_shape, dtype=spec.torch_dtype, device=device) for _ in self.layers]
        self.index_k_pages = [
            torch.empty((spec.num_pages, index_page_bytes), dtype=torch.uint8, device=device) for _ in self.layers
        ]

    def local(self, layer_id):
        return layer_id - self.layers.start

    def page_token_rows(self, layer_id, page_ids):
        i = self.local(layer_id)
        return self.k_pages[i][page_ids].flatten(0, 1), self.v_pages[i][page_ids].flatten(0, 1)
