"""Device int4 KV store, layer-stacked buffers registered on an nn.Module."""
import torch
from torch import nn


class Int4KVStore(nn.Module):
    def __init__(self, geom: dict, num_tokens: int, page_size: int = 16, device="cuda"):
        super().__init__()
        self.geom, self.page_size = geom, page_size
        self.num_slots = (num_tokens + page_size - 1) // page_size * page_size + page_size
        lead = torch.Size((geom["layers"], self.num_slots))
        for name, tail, dtype in (
            ("key_codes", geom["codes"], torch.uint8),
            ("value_codes", geom["codes"], torch.uint8),
            ("key_scales", geom["scales"], geom["scale_dtype"]),
            ("value_scales", geom["scales"], geom["scale_dtype"]),
        ):
            self.register_buffer(name, torch.zeros(lead + tail, dtype=dtype, device=device),
                                 persistent=False)

    def layer(self, i: int):
        return self.key_codes[i], self.key_scales[i], self.value_codes[i], self.value_scales[i]

    def page_span(self, page: int) -> slice:
        lo = page * self.page_size
        return slice(lo, lo + self.page_size)

    def nbytes(self) -> int:
        return sum(b.numel() * b.element_size() for b in self.buffers())

    def extra_repr(self) -> str:
        g = self.geom
        return f"layers={g['layers']}, slots={self.num_slots}, codes={tuple(g['codes'])}"
