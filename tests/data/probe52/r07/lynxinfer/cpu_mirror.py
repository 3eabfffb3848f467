"""CPU mirror used by the radix tree to keep evicted prefixes."""
from collections import defaultdict

import torch

from .layer_kinds import group_layers, layer_kinds


class WindowedCpuMirror:
    def __init__(self, cfg, tp_size, tokens_by_kind, dtype, device="cpu"):
        self.groups = group_layers(layer_kinds(cfg))
        heads = max(1, cfg.num_key_value_heads // tp_size)
        head_dim = cfg.hidden_size // cfg.num_attention_heads
        self.token_shape = (heads, head_dim)
        self.k_store = defaultdict(list)
        self.v_store = defaultdict(list)
        for kind, layers in self.groups.items():
            shape = (tokens_by_kind[kind], *self.token_shape)
            for _ in layers:
                self.k_store[kind].append(torch.empty(shape, dtype=dtype, device=device))
                self.v_store[kind].append(torch.empty(shape, dtype=dtype, device=device))

    def bytes_per_token(self, kind: str) -> int:
        t = self.k_store[kind][0]
        return 2 * t[0].numel() * t.element_size() * len(self.k_store[kind])
