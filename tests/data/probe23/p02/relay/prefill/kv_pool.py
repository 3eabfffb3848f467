import torch

from relay.layout import KvLayout


class PrefillKvPool:
    """Per-layer K and V block tensors on the prefill GPU.

    K carries the rope part (nope + rope = 192), V only v_head_dim (128)."""

    def __init__(self, layout: KvLayout, device):
        self.layout = layout
        self.device = torch.device(device)
        shape_k = (layout.num_blocks, layout.block_size, layout.num_heads,
                   layout.k_head_dim)
        shape_v = (layout.num_blocks, layout.block_size, layout.num_heads,
                   layout.v_head_dim)
        self.k_cache = [torch.empty(shape_k, dtype=layout.dtype, device=self.device)
                        for _ in range(layout.num_layers)]
        self.v_cache = [torch.empty(shape_v, dtype=layout.dtype, device=self.device)
                        for _ in range(layout.num_layers)]

    def regions(self):
        for i in range(self.layout.num_layers):
            yield f"k{i}", self.k_cache[i]
            yield f"v{i}", self.v_cache[i]
