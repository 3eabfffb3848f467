import torch

from relay.layout import KVLayout


class RemotePeerRegion:
    """Mirror of the peer's registered KV region, rebuilt from its wire descriptor.

    Segment-major: all K layers, then all V layers, then all K scales, then all V scales.
    """

    SEGMENTS = ("peer_k", "peer_v", "peer_k_scale", "peer_v_scale")

    def __init__(self, wire_layout: str, peer_pages: int, device="cuda"):
        self.layout = KVLayout.from_wire(wire_layout).with_pages(peer_pages)
        lay = self.layout
        self.region = torch.empty(lay.num_layers * lay.layer_bytes(), dtype=torch.uint8,
                                  device=device)
        kv_shape = (lay.num_pages, lay.page_size, lay.kv_heads, lay.head_dim)
        sc_shape = (lay.num_pages, lay.page_size, lay.kv_heads)
        off = 0
        for name in self.SEGMENTS:
            is_scale = name.endswith("_scale")
            seg = lay.scale_segment_bytes() if is_scale else lay.kv_segment_bytes()
            dtype = lay.torch_scale_dtype if is_scale else lay.torch_kv_dtype
            shape = sc_shape if is_scale else kv_shape
            views = []
            for _ in range(lay.num_layers):
                views.append(self.region[off:off + seg].view(dtype).view(shape))
                off += seg
            setattr(self, name, views)
