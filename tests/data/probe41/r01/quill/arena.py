import torch

from .config import QuillConfig


class DevicePageArena:
    """Paged K/V storage on the accelerator: one (k, v) tensor pair per layer."""

    def __init__(self, cfg: QuillConfig):
        self.page_size = cfg.page_size
        self.num_pages = cfg.num_gpu_pages
        self.num_layers = cfg.num_layers
        self.dtype = cfg.kv_torch_dtype
        shape = (self.num_pages, self.page_size, cfg.num_kv_heads, cfg.head_dim)
        self.k_pages = []
        self.v_pages = []
        for _ in range(cfg.num_layers):
            self.k_pages.append(torch.empty(shape, dtype=self.dtype, device=cfg.device))
            self.v_pages.append(torch.empty(shape, dtype=self.dtype, device=cfg.device))
        # page 0 is kept as a padding target for CUDA graphs
        self._free = list(range(self.num_pages - 1, 0, -1))

    def alloc(self, n: int):
        if n > len(self._free):
            return None
        return [self._free.pop() for _ in range(n)]

    def release(self, pages):
        self._free.extend(pages)

    def bytes_per_page(self) -> int:
        one = self.k_pages[0][0]
        return 2 * self.num_layers * one.numel() * one.element_size()
