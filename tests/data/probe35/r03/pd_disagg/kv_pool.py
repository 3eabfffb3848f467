from typing import Dict, List

import torch

from pd_disagg.layout import SCALE_DTYPE, KVLayout


class PagedKVPool:
    """Decode-side paged KV cache with per-token, per-head dequant scales."""

    def __init__(self, layout: KVLayout, num_pages: int, device="cuda"):
        self.layout = layout
        self.num_pages = num_pages
        self.page_size = layout.page_size
        self.capacity = num_pages * layout.page_size
        self.n_layers = layout.num_layers
        self.device = device
        self._index: Dict[int, int] = {lid: i for i, lid in enumerate(layout.layer_ids)}

        shape = (num_pages, layout.page_size, layout.local_kv_heads, layout.head_dim)
        sshape = (num_pages, layout.page_size, layout.local_kv_heads)
        self.k_cache: List[torch.Tensor] = [torch.empty(shape, dtype=layout.kv_dtype, device=device)
                                            for _ in layout.layer_ids]
        self.v_cache: List[torch.Tensor] = [torch.empty(shape, dtype=layout.kv_dtype, device=device)
                                            for _ in layout.layer_ids]
        self.k_scale: List[torch.Tensor] = [torch.ones(sshape, dtype=SCALE_DTYPE, device=device)
                                            for _ in layout.layer_ids]
        self.v_scale: List[torch.Tensor] = [torch.ones(sshape, dtype=SCALE_DTYPE, device=device)
                                            for _ in layout.layer_ids]

    def layer(self, layer_id: int):
        i = self._index[layer_id]
        return self.k_cache[i], self.v_cache[i], self.k_scale[i], self.v_scale[i]
