"""Single contiguous device tensor holding every layer's K and V blocks."""
import torch

from .layout import KVLayout


class PagedKVPool:
    def __init__(self, layout: KVLayout, device="cuda"):
        self.layout = layout
        self.device = torch.device(device)
        # [num_layers, 2, num_blocks, block_size, num_kv_heads, head_dim]
        self.kv_data = torch.zeros(*layout.full_shape, dtype=layout.dtype, device=self.device)

    @property
    def num_layers(self) -> int:
        return self.layout.num_layers

    @property
    def num_tokens(self) -> int:
        return self.layout.num_blocks * self.layout.block_size

    def layer(self, idx: int):
        k, v = self.kv_data[idx].unbind(0)
        return k, v

    def block_view(self, layer: int, block: int) -> torch.Tensor:
        return self.kv_data[layer, :, block]
