"""Decode-side paged KV pool; pages are filled by RDMA from the prefill peer."""
import torch

from .options import KVOptions


class DecodePagedKV:
    def __init__(self, opts: KVOptions, device="cuda"):
        self.opts = opts
        shape = (
            opts.num_layers,
            opts.num_pages,
            opts.page_size,
            opts.kv_heads_per_rank,
            opts.head_dim,
        )
        self.k_buf = torch.zeros(shape, dtype=opts.torch_dtype, device=device)
        self.v_buf = torch.zeros(shape, dtype=opts.torch_dtype, device=device)

    def page_bytes(self) -> int:
        per_layer = self.k_buf[0, 0].numel() * self.k_buf.element_size()
        return 2 * per_layer * self.opts.num_layers

    def register_regions(self):
        """(ptr, length, item_len) per layer, handed to the transfer engine."""
        regions = []
        for buf in (self.k_buf, self.v_buf):
            for layer in range(self.opts.num_layers):
                t = buf[layer]
                item = t[0].numel() * t.element_size()
                regions.append((t.data_ptr(), t.numel() * t.element_size(), item))
        return regions
