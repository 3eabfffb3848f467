import torch

from .geometry import AttnGeometry


class HostStagingArena:
    def __init__(self, geom: AttnGeometry, num_pages: int, device="cpu", pin: bool = False):
        self.geom = geom
        self.num_pages = num_pages
        tokens = num_pages * geom.page_tokens
        k_bytes = tokens * geom.heads_per_rank * geom.head_width * geom.elem_size
        v_bytes = tokens * geom.heads_per_rank * geom.value_dim * geom.elem_size
        self.layer_stride = k_bytes + v_bytes
        self.arena_bytes = torch.empty(
            geom.layers * self.layer_stride, dtype=torch.uint8, device=device,
            pin_memory=pin and device == "cpu",
        )
        self.k_views = []
        self.v_views = []
        for layer in range(geom.layers):
            base = layer * self.layer_stride
            k = self.arena_bytes[base:base + k_bytes].view(geom.dtype)
            v = self.arena_bytes[base + k_bytes:base + self.layer_stride].view(geom.dtype)
            self.k_views.append(
                k.view(num_pages, geom.page_tokens, geom.heads_per_rank, geom.head_width)
            )
            self.v_views.append(
                v.view(num_pages, geom.page_tokens, geom.heads_per_rank, geom.value_dim)
            )

    def layer_bytes(self, layer: int) -> torch.Tensor:
        base = layer * self.layer_stride
        return self.arena_bytes[base:base + self.layer_stride]
