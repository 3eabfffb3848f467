import torch


class QuantKVCache:
    """fp8 K/V with a per-token, per-head scale."""

    BUFFERS = ("k_cache", "v_cache", "k_scale", "v_scale")

    def __init__(self, num_slots: int, n_layers: int, n_kv_heads: int, head_size: int,
                 device: str = "cuda"):
        self.num_slots = num_slots
        self.n_layers = n_layers
        self.n_kv_heads = n_kv_heads
        self.head_size = head_size
        self.k_cache = [torch.empty(self._shape("k_cache"), dtype=torch.float8_e4m3fn, device=device)
                        for _ in range(n_layers)]
        self.v_cache = [torch.empty(self._shape("v_cache"), dtype=torch.float8_e4m3fn, device=device)
                        for _ in range(n_layers)]
        self.k_scale = [torch.empty(self._shape("k_scale"), dtype=torch.float32, device=device)
                        for _ in range(n_layers)]
        self.v_scale = [torch.empty(self._shape("v_scale"), dtype=torch.float32, device=device)
                        for _ in range(n_layers)]

    def _shape(self, name):
        if name.endswith("_scale"):
            return (self.num_slots, self.n_kv_heads)
        return (self.num_slots, self.n_kv_heads, self.head_size)
