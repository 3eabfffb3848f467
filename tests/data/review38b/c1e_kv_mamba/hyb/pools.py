import torch


class KVPool:
    def __init__(self, size, head_num, head_dim, layer_num, dtype, device):
        self.kv_buffer = [torch.zeros((size + 1, 2, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]


class MambaStatePool:
    def __init__(self, size, head_num, head_dim, conv_dim, layer_num, dtype, device):
        self.state_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
