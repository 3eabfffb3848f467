import itertools

import torch


class InterleavedKVPool:
    """K and V fused on axis 1: kv_buffer[layer] is [slots, 2, kv_heads, head_dim].
    Local (sliding) layers only keep a window's worth of slots."""

    def __init__(self, spec, max_tokens, page, device="cuda"):
        self.spec = spec
        self.page = page
        self.full_slots = (max_tokens + page - 1) // page * page
        window = spec.model["sliding_window"]
        self.window_slots = (min(window, max_tokens) + 2 * page - 1) // page * page
        self.num_layers = spec.model["num_hidden_layers"]
        sizes = dict(itertools.chain(
            ((i, self.window_slots) for i in spec.local_layers),
            ((i, self.full_slots) for i in spec.global_layers),
        ))
        self.kv_buffer = [
            torch.empty((sizes[i], 2, spec.kv_heads, spec.head_dim), dtype=spec.torch_dtype, device=device)
            for i in range(self.num_layers)
        ]

    def k(self, layer):
        return self.kv_buffer[layer][:, 0]

    def v(self, layer):
        return self.kv_buffer[layer][:, 1]
