import torch


class DraftKVPool:
    """KV cache of the speculative draft model: its own heads and layers."""

    def __init__(self, size, head_num, head_dim, layer_num, dtype, device):
        self.size = size
        self.k_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
