"""CPU swap space. Geometry is read off the live GPU cache so the two cannot drift."""
import torch


class SwapSpace:
    def __init__(self, gpu_cache, swap_ratio: float, device="cpu"):
        self.gpu_cache = gpu_cache
        self.num_pages = int(gpu_cache.num_pages * swap_ratio)
        self.page_size = gpu_cache.page_size
        self.pool_size = self.num_pages * self.page_size
        self.depth = gpu_cache.depth
        self.layout = gpu_cache.layout
        shape = (self.num_pages,) + self.layout.page_shape(
            gpu_cache.page_size, gpu_cache.heads, gpu_cache.dim)
        self.key_pages = [torch.empty(shape, dtype=gpu_cache.dtype, device=device)
                          for _ in range(self.depth)]
        self.value_pages = [torch.empty(shape, dtype=gpu_cache.dtype, device=device)
                            for _ in range(self.depth)]
        self.device = device

    def swap_out(self, mapping):
        """mapping: {gpu_page: cpu_page}"""
        for layer in range(self.depth):
            for src, dst in mapping.items():
                self.key_pages[layer][dst].copy_(self.gpu_cache.key_pages[layer][src])
                self.value_pages[layer][dst].copy_(self.gpu_cache.value_pages[layer][src])

    def swap_in(self, mapping):
        """mapping: {cpu_page: gpu_page}"""
        for layer in range(self.depth):
            for src, dst in mapping.items():
                self.gpu_cache.key_pages[layer][dst].copy_(self.key_pages[layer][src])
                self.gpu_cache.value_pages[layer][dst].copy_(self.value_pages[layer][src])
