import torch


class GpuKVCache:
    def __init__(self, num_slots: int, n_layers: int, n_kv_heads: int, head_size: int,
                 dtype: torch.dtype, device: str = "cuda", use_memory_saver: bool = False,
                 label: str = ""):
        self.num_slots = num_slots
        self.n_layers = n_layers
        self.n_kv_heads = n_kv_heads
        self.head_size = head_size
        self.dtype = dtype
        self.device = device
        self.use_memory_saver = use_memory_saver
        self.label = label
        self.k = [torch.zeros((num_slots, n_kv_heads, head_size), dtype=dtype, device=device)
                  for _ in range(n_layers)]
        self.v = [torch.zeros((num_slots, n_kv_heads, head_size), dtype=dtype, device=device)
                  for _ in range(n_layers)]
        self.tag = self._tag()

    def _tag(self):
        return f"kv:{self.label}" if self.label else "kv"

    def region(self):
        return "memory_saver" if self.use_memory_saver else None
