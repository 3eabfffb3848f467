import torch

from .layout import KVLayout


class DeviceKVCache:
    def __init__(self, layout: KVLayout, max_blocks: int, device="cuda"):
        self.layout = layout
        self.max_blocks = max_blocks
        lead = (layout.num_layers, max_blocks, layout.kv_heads_this_rank, layout.tokens_per_block)
        self.keys = torch.empty(lead + (layout.qk_head_dim,), dtype=layout.kv_dtype, device=device)
        self.values = torch.empty(lead + (layout.v_head_dim,), dtype=layout.kv_dtype, device=device)

    def block_view(self, layer: int, block: int):
        return self.keys[layer, block], self.values[layer, block]
