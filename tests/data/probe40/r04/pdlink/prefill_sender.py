"""Prefill-side KV buffer whose pages are pushed to the decode instance."""
import torch

from .options import KVOptions


class PrefillKVSender:
    def __init__(self, opts: KVOptions, device="cuda"):
        self.opts = opts
        self.heads = opts.kv_heads
        shape = (opts.num_layers, opts.num_pages, opts.page_size, self.heads, opts.head_dim)
        self.k_buf = torch.zeros(shape, dtype=opts.torch_dtype, device=device)
        self.v_buf = torch.zeros(shape, dtype=opts.torch_dtype, device=device)

    def register_regions(self):
        regions = []
        for buf in (self.k_buf, self.v_buf):
            for layer in range(self.opts.num_layers):
                t = buf[layer]
                item = t[0].numel() * t.element_size()
                regions.append((t.data_ptr(), t.numel() * t.element_size(), item))
        return regions

    def send_pages(self, engine, peer_regions, src_pages, dst_pages):
        local = self.register_regions()
        for (src_ptr, _, item), (dst_ptr, _, peer_item) in zip(local, peer_regions):
            for s, d in zip(src_pages, dst_pages):
                engine.write(src_ptr + s * item, dst_ptr + d * peer_item, item)
