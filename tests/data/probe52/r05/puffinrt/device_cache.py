"""GPU FP4 KV cache: one flat byte row per token per layer, fields carved by offset."""
import itertools

import torch

from .quant import Fp4Scheme


class Fp4PackedKVCache:
    FIELDS = ("k_data", "k_scale", "v_data", "v_scale")

    def __init__(self, num_layers, kv_heads, head_dim, num_tokens, scheme: Fp4Scheme,
                 page_size=64, device="cuda"):
        self.num_layers, self.kv_heads, self.head_dim = num_layers, kv_heads, head_dim
        self.scheme, self.page_size = scheme, page_size
        self.num_slots = (num_tokens // page_size + 1) * page_size
        elems = kv_heads * head_dim
        data = scheme.data_bytes(elems)
        scale = scheme.scale_count(elems) * scheme.scale_dtype.itemsize
        self.widths = (data, scale, data, scale)
        self.offsets = (0, *itertools.accumulate(self.widths))
        self.row_bytes = self.offsets[-1]
        self.flat = [
            torch.zeros((self.num_slots, self.row_bytes), dtype=torch.uint8, device=device)
            for _ in range(num_layers)
        ]
        views = {name: [] for name in self.FIELDS}
        for layer in self.flat:
            for name, start, width in zip(self.FIELDS, self.offsets, self.widths):
                views[name].append(layer.narrow(1, start, width))
        self.k_data, self.k_scale = views["k_data"], views["k_scale"]
        self.v_data, self.v_scale = views["v_data"], views["v_scale"]

    def scales_as_float8(self, layer: int):
        dt = self.scheme.scale_dtype
        return self.k_scale[layer].view(dt), self.v_scale[layer].view(dt)
