import torch

from mc_serving.spec import KVSpec


class Fp8PagedPool:
    """GPU pool: per layer [pages, page_size, 2, kv_heads, head_bytes] uint8,
    each head row = fp8 values + inline fp32 group scales."""

    def __init__(self, spec: KVSpec, num_pages: int, device="cuda"):
        self.spec = spec
        self.num_pages = num_pages
        self.device = torch.device(device)
        shape = (num_pages, spec.page_size, 2, spec.num_kv_heads, spec.head_bytes)
        self.kv_buffer = [torch.zeros(shape, dtype=torch.uint8, device=self.device)
                          for _ in range(spec.num_layers)]

    @property
    def num_tokens(self) -> int:
        return self.num_pages * self.spec.page_size

    def gather_page(self, page_id: int):
        return torch.stack([layer[page_id] for layer in self.kv_buffer], dim=1)
