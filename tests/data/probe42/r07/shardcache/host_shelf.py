import torch

from .options import ShelfLayout


class ShardedHostShelf:
    """Host shelf for one TP rank, laid out in pages of page_size tokens."""

    def __init__(self, num_pages, page_size, dtype, head_num, head_dim, layer_num, layout, device):
        self.num_pages = num_pages
        self.page_size = page_size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.layout = layout
        if layout is ShelfLayout.LAYER_FIRST:
            shape = (layer_num, num_pages, page_size, head_num, head_dim)
        elif layout is ShelfLayout.PAGE_FIRST:
            shape = (num_pages, page_size, layer_num, head_num, head_dim)
        else:
            raise ValueError(layout)
        self.k_buffer = torch.empty(shape, dtype=dtype, device=device)
        self.v_buffer = torch.empty(shape, dtype=dtype, device=device)

    @classmethod
    def from_config(cls, opts):
        if opts.kv_cache_dtype == "auto":
            dtype = opts.model_dtype
        elif opts.kv_cache_dtype.startswith("fp8"):
            dtype = torch.uint8  # fp8 bytes are copied verbatim
        else:
            raise ValueError(opts.kv_cache_dtype)
        head_num = max(1, opts.num_kv_heads // opts.tp_size)
        num_pages = opts.host_tokens // opts.page_size
        return cls(num_pages, opts.page_size, dtype, head_num, opts.head_dim,
                   opts.num_layers, ShelfLayout(opts.shelf_layout), opts.host_device)

    @property
    def size(self):
        return self.num_pages * self.page_size
