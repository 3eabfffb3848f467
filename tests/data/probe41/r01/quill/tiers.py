import torch

from .config import QuillConfig


class CpuSpillTier:
    """Second-level page store in host RAM for evicted prefix pages."""

    def __init__(self, cfg: QuillConfig, device: str = "cpu"):
        self.page_size = cfg.page_size
        self.num_pages = cfg.num_host_pages
        self.num_layers = cfg.num_layers
        self.dtype = cfg.torch_dtype
        pin = device == "cpu" and torch.cuda.is_available()
        shape = torch.Size([self.num_pages, self.page_size, cfg.num_kv_heads, cfg.head_dim])
        self.k_pages = [
            torch.empty(shape, dtype=self.dtype, device=device, pin_memory=pin)
            for _ in range(self.num_layers)
        ]
        self.v_pages = [
            torch.empty(shape, dtype=self.dtype, device=device, pin_memory=pin)
            for _ in range(self.num_layers)
        ]
        self._free = list(range(self.num_pages))
        self._owner = {}

    def spill(self, arena, gpu_pages, prefix_hash):
        if len(gpu_pages) > len(self._free):
            return False
        host_pages = [self._free.pop() for _ in gpu_pages]
        src = torch.tensor(gpu_pages, dtype=torch.long)
        dst = torch.tensor(host_pages, dtype=torch.long)
        for layer in range(self.num_layers):
            self.k_pages[layer].index_copy_(0, dst, arena.k_pages[layer][src].to(self.k_pages[layer].device))
            self.v_pages[layer].index_copy_(0, dst, arena.v_pages[layer][src].to(self.v_pages[layer].device))
        self._owner[prefix_hash] = host_pages
        return True

    def load(self, arena, prefix_hash, gpu_pages):
        host_pages = self._owner.pop(prefix_hash)
        for layer in range(self.num_layers):
            for h, g in zip(host_pages, gpu_pages):
                arena.k_pages[layer][g].copy_(self.k_pages[layer][h], non_blocking=True)
                arena.v_pages[layer][g].copy_(self.v_pages[layer][h], non_blocking=True)
        self._free.extend(host_pages)
