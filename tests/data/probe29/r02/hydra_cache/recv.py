"""Decode-side landing zone for KV pushed by a prefill worker over the wire.

Page-major so that one RDMA write per page covers every layer:
    [num_pages, n_layer, 2, page_size, heads_per_rank, d_head]
"""
import torch

from .spec import CacheSpec


class RecvBuffer:
    def __init__(self, spec: CacheSpec, num_pages, page_size=None, device="cuda"):
        self.spec = spec
        self.page_size = page_size or spec.block_size
        self.num_pages = num_pages
        self.capacity = num_pages * self.page_size
        self.pages = torch.empty(
            (num_pages, spec.n_layer, 2, self.page_size, spec.heads_per_rank, spec.d_head),
            dtype=spec.dtype, device=device,
        )
        self._busy = [False] * num_pages

    def reserve(self) -> int:
        for i, busy in enumerate(self._busy):
            if not busy:
                self._busy[i] = True
                return i
        raise RuntimeError("receive buffer exhausted")

    def release(self, page: int) -> None:
        self._busy[page] = False

    def page_view(self, page: int, layer: int) -> torch.Tensor:
        return self.pages[page, layer]

    def drain_into(self, page: int, blocks, block_id: int) -> None:
        for layer in range(self.spec.n_layer):
            blocks.write_block(layer, block_id, self.pages[page, layer])
