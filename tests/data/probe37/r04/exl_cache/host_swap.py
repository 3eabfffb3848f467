"""Host-side swap area: paused jobs have their cache pages copied here."""
from typing import Optional

import torch

from .config import ExConfig

CACHE_BITS = {"fp16": 16, "fp8": 8, "q4": 4, "q6": 6, "q8": 8}
Q_GROUP_SIZE = 32  # channels per fp16 scale in the Q caches


class HostSwapArea:
    """One stacked tensor per buffer: [layer, token, kv_head, bytes]."""

    def __init__(self, config: ExConfig, mode: str, batch_size: int, max_seq_len: int,
                 device: str = "cpu"):
        self.mode = mode
        self.num_layers = config.num_hidden_layers
        self.max_tokens = batch_size * max_seq_len
        heads = config.num_key_value_heads
        code_bytes = config.head_dim * CACHE_BITS[mode] // 8
        shape = (self.num_layers, self.max_tokens, heads, code_bytes)
        self.key_states = torch.empty(shape, dtype=torch.uint8, device=device)
        self.value_states = torch.empty(shape, dtype=torch.uint8, device=device)
        self.key_scales: Optional[torch.Tensor] = None
        self.value_scales: Optional[torch.Tensor] = None
        if mode.startswith("q"):
            groups = config.head_dim // Q_GROUP_SIZE
            sshape = (self.num_layers, self.max_tokens, heads, groups)
            self.key_scales = torch.empty(sshape, dtype=torch.float16, device=device)
            self.value_scales = torch.empty(sshape, dtype=torch.float16, device=device)

    def swap_out(self, cache, layer: int, batch_idx: int, length: int) -> None:
        base = batch_idx * cache.max_seq_len
        self.key_states[layer, base:base + length].copy_(
            cache.key_states[layer][batch_idx, :length].view(torch.uint8))
        self.value_states[layer, base:base + length].copy_(
            cache.value_states[layer][batch_idx, :length].view(torch.uint8))
        if self.key_scales is not None:
            self.key_scales[layer, base:base + length].copy_(cache.key_scales[layer][batch_idx, :length])
            self.value_scales[layer, base:base + length].copy_(cache.value_scales[layer][batch_idx, :length])
