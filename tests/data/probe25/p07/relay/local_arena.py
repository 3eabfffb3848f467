from typing import List

import torch

from relay.layout import KVLayout


class RegisteredKVArena:
    """One flat, transfer-engine-registered allocation carved into per-layer K/V/scale views.

    Layer-major: [L0: K | V | Kscale | Vscale][L1: ...] so that a layer is one contiguous region.
    """

    def __init__(self, layout: KVLayout, device="cuda"):
        self.layout = layout
        self.arena = torch.empty(layout.num_layers * layout.layer_bytes(), dtype=torch.uint8,
                                 device=device)
        kv_shape = (layout.num_pages, layout.page_size, layout.kv_heads, layout.head_dim)
        sc_shape = (layout.num_pages, layout.page_size, layout.kv_heads)
        kv_seg, sc_seg = layout.kv_segment_bytes(), layout.scale_segment_bytes()
        self.k_layers: List[torch.Tensor] = []
        self.v_layers: List[torch.Tensor] = []
        self.k_scales: List[torch.Tensor] = []
        self.v_scales: List[torch.Tensor] = []
        off = 0
        for _ in range(layout.num_layers):
            for dst, seg, dtype, shape in (
                (self.k_layers, kv_seg, layout.torch_kv_dtype, kv_shape),
                (self.v_layers, kv_seg, layout.torch_kv_dtype, kv_shape),
                (self.k_scales, sc_seg, layout.torch_scale_dtype, sc_shape),
                (self.v_scales, sc_seg, layout.torch_scale_dtype, sc_shape),
            ):
                dst.append(self.arena[off:off + seg].view(dtype).view(shape))
                off += seg
        assert off == self.arena.numel()

    def register_descriptor(self) -> dict:
        return {"len": self.arena.numel(), "layout": self.layout.to_wire()}
