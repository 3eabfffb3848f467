import torch


class PrefillKVPool:
    def __init__(self, size, layer_num, head_num, head_dim, dtype):
        self.k_buffer = [torch.zeros((size, head_num, head_dim), dtype=dtype) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, head_num, head_dim), dtype=dtype) for _ in range(layer_num)]


class DecodeKVPool:
    def __init__(self, size, layer_num, head_num, head_dim, dtype):
        self.k_buffer = [torch.zeros((size, head_num * head_dim), dtype=dtype) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, head_num * head_dim), dtype=dtype) for _ in range(layer_num)]
