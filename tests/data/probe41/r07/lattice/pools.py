import torch

from .layout import LatentLayout


class LatentPagePool:
    """Per-layer [tokens, 1, width] buffers; page 0 is a scratch page for padding."""

    def __init__(self, layout: LatentLayout, page_size, num_pages, device="cuda"):
        self.layout = layout
        self.page_size = page_size
        self.num_pages = num_pages
        rows = (num_pages + 1) * page_size
        self.kv_buffer = [
            torch.empty(torch.Size((rows, 1, layout.width)), dtype=layout.dtype, device=device)
            for _ in range(layout.num_layers)
        ]

    def page_rows(self, page):
        return slice(page * self.page_size, (page + 1) * self.page_size)


class LatentSwapSpace:
    """One contiguous host allocation so swap-out is a single DMA per layer run."""

    def __init__(self, layout: LatentLayout, page_size, num_pages, device="cpu"):
        self.page_size = page_size
        self.num_pages = num_pages
        rows = num_pages * page_size
        row_bytes = layout.kv_lora_rank * layout.itemsize
        pin = device == "cpu" and torch.cuda.is_available()
        raw = torch.empty(layout.num_layers * rows * row_bytes, dtype=torch.uint8,
                          device=device, pin_memory=pin)
        self.kv_buffer = raw.view(layout.dtype).view(layout.num_layers, rows, 1, layout.kv_lora_rank)

    def swap_out(self, pool, gpu_page, host_page):
        src, dst = pool.page_rows(gpu_page), slice(host_page * self.page_size, (host_page + 1) * self.page_size)
        for layer, buf in enumerate(pool.kv_buffer):
            self.kv_buffer[layer, dst].copy_(buf[src], non_blocking=True)
