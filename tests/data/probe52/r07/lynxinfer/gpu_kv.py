"""Device KV slabs, one pool per attention kind."""
from collections import defaultdict

import torch

from .layer_kinds import SLIDING, group_layers, layer_kinds


def resolve_head_dim(cfg):
    return (
        getattr(cfg, "head_dim", None)
        or getattr(cfg, "attention_head_size", None)
        or cfg.hidden_size // cfg.num_attention_heads
    )


class HybridWindowKV:
    def __init__(self, cfg, tp_size, full_tokens, max_running, dtype, device="cuda"):
        self.groups = group_layers(layer_kinds(cfg))
        self.heads = max(1, cfg.num_key_value_heads // tp_size)
        self.head_dim = resolve_head_dim(cfg)
        window = getattr(cfg, "sliding_window", None) or full_tokens
        self.capacity = {
            SLIDING: min(full_tokens, window * max_running),
        }
        self.k_slabs = defaultdict(list)
        self.v_slabs = defaultdict(list)
        for kind, layers in self.groups.items():
            slots = self.capacity.get(kind, full_tokens) + 1
            for _ in layers:
                shape = (slots, self.heads, self.head_dim)
                self.k_slabs[kind].append(torch.zeros(shape, dtype=dtype, device=device))
                self.v_slabs[kind].append(torch.zeros(shape, dtype=dtype, device=device))

    def slab_for(self, layer_id: int):
        for kind, layers in self.groups.items():
            if layer_id in layers:
                pos = layers.index(layer_id)
                return self.k_slabs[kind][pos], self.v_slabs[kind][pos]
        raise IndexError(layer_id)
