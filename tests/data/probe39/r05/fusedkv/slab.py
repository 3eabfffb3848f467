"""Device slab with K and V interleaved along the last dimension.

Layout is logically ``[layer, token, head, 2 * head_dim]`` (K then V), but
memory is token-major: all layers of one token are adjacent, so that moving
a contiguous token range to or from the host is a single memcpy.
"""

import torch

from .defaults import local_kv_heads, resolve_dtype


def token_major_strides(num_layers, heads, width):
    per_layer = heads * width
    return (per_layer, num_layers * per_layer, width, 1)


class InterleavedKVSlab:
    def __init__(self, cfg, num_tokens, device="cuda"):
        self.num_tokens = num_tokens
        self.num_layers = cfg["num_layers"]
        self.heads = local_kv_heads(cfg)
        self.head_dim = cfg["head_dim"]
        width = 2 * self.head_dim
        self.kv = torch.empty_strided(
            (self.num_layers, num_tokens, self.heads, width),
            token_major_strides(self.num_layers, self.heads, width),
            dtype=resolve_dtype(cfg), device=device)

    def keys(self, layer):
        return self.kv[layer, ..., : self.head_dim]

    def values(self, layer):
        return self.kv[layer, ..., self.head_dim:]

    def write(self, layer, slots, k, v):
        self.kv[layer, slots] = torch.cat((k, v), dim=-1)

    def token_range(self, start, stop):
        """All layers for tokens [start, stop) as one contiguous block."""
        return self.kv.permute(1, 0, 2, 3)[start:stop]
