import torch


class MHAKVPool:
    def __init__(self, size, layer_num, head_num, head_dim, dtype, device="cuda"):
        self.k_buffer = [torch.zeros((size, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]


class DraftKVPool:
    """The draft model's cache (EAGLE / small draft model): its own shapes."""

    def __init__(self, size, layer_num, head_num, head_dim, dtype, device="cuda"):
        self.k_buffer = [torch.zeros((size, head_num * head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, head_num * head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
