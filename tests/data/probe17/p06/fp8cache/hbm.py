import torch


class HbmKVPool:
    """fp8 (e4m3) K/V with a float32 per-token-per-head dequant scale."""

    def __init__(self, num_layers, num_slots, num_heads, head_size, device="cuda"):
        self.num_layers = num_layers
        self.num_slots = num_slots
        self.num_heads = num_heads
        self.head_size = head_size
        self.kv_fp8 = torch.empty(
            (num_layers, 2, num_slots, num_heads, head_size),
            dtype=torch.float8_e4m3fn, device=device,
        )
        self.kv_scales = torch.ones(
            (num_layers, 2, num_slots, num_heads), dtype=torch.float32, device=device
        )

    def layer(self, i):
        return self.kv_fp8[i, 0], self.kv_fp8[i, 1], self.kv_scales[i]
