import torch
from alloc_mixin import LayeredAllocMixin


class GpuKVCache(LayeredAllocMixin):
    def __init__(self, num_slots: int, n_layers: int, n_kv_heads: int, head_size: int,
                 dtype: torch.dtype, device: str = "cuda"):
        self.num_slots = num_slots
        self.n_layers = n_layers
        self.n_kv_heads = n_kv_heads
        self.head_size = head_size
        self.dtype = dtype
        self.device = device
        self._create_buffers()
