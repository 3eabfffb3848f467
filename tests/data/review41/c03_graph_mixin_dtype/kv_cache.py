import torch


class PagedKVCache:
    def __init__(self, num_slots: int, n_layers: int, n_kv_heads: int, head_size: int,
                 dtype: torch.dtype, device: str = "cuda"):
        self.num_slots = num_slots
        self.n_layers = n_layers
        self.n_kv_heads = n_kv_heads
        self.head_size = head_size
        self.dtype = dtype
        self.device = device
        self.k = []
        self.v = []
        self._create_buffers()

    def _alloc(self, shape):
        return torch.zeros(shape, dtype=self.dtype, device=self.device)

    def _create_buffers(self):
        for _ in range(self.n_layers):
            self.k.append(self._alloc((self.num_slots, self.n_kv_heads, self.head_size)))
            self.v.append(self._alloc((self.num_slots, self.n_kv_heads, self.head_size)))
