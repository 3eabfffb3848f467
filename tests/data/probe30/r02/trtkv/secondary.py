"""Secondary (host) block pool for KV cache offloading.

Blocks evicted from the primary pool are copied here byte-for-byte so they
can be onboarded again on a later reuse hit.  The host pool stores raw
bytes; it never interprets the element type.
"""
import math
from typing import List

import torch


class SecondaryKVPool:
    def __init__(self, primary, max_tokens: int, device="cpu"):
        self.num_layers = primary.num_layers
        self.tokens_per_block = primary.tokens_per_block
        self.blocks_in_secondary_pool = math.ceil(max_tokens / self.tokens_per_block)
        self.device = torch.device(device)

        elem_size = torch.empty((), dtype=primary.dtype).element_size()
        mapping = primary.mapping
        self.block_bytes_per_layer: List[int] = []
        for total_heads in primary.total_num_kv_heads_per_layer:
            local_heads = mapping.local_kv_heads(total_heads)
            self.block_bytes_per_layer.append(
                primary.kv_factor * self.tokens_per_block * local_heads * primary.head_dim * elem_size
            )

        pin = self.device.type == "cpu" and torch.cuda.is_available()
        self.kv_cache_pool_per_layer: List[torch.Tensor] = [
            torch.empty(
                (self.blocks_in_secondary_pool, nbytes),
                dtype=torch.uint8,
                device=self.device,
                pin_memory=pin,
            )
            for nbytes in self.block_bytes_per_layer
        ]

    def offload_block(self, primary, primary_block: int, secondary_block: int) -> None:
        for layer_idx, dst in enumerate(self.kv_cache_pool_per_layer):
            src = primary.get_buffers(layer_idx)[primary_block]
            dst[secondary_block].copy_(src.reshape(-1).view(torch.uint8), non_blocking=True)

    def onboard_block(self, primary, secondary_block: int, primary_block: int) -> None:
        for layer_idx, src in enumerate(self.kv_cache_pool_per_layer):
            dst = primary.get_buffers(layer_idx)[primary_block]
            dst.reshape(-1).view(torch.uint8).copy_(src[secondary_block], non_blocking=True)
