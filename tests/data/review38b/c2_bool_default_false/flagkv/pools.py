import torch


class GpuKVPool:
    def __init__(self, size, num_layers, num_kv_heads, head_dim, dtype, device):
        shape = (num_layers, size, num_kv_heads, head_dim)
        self.k_buffer = torch.empty(shape, dtype=dtype, device=device)
        self.v_buffer = torch.empty(shape, dtype=dtype, device=device)


class CpuKVPool:
    def __init__(self, size, num_layers, num_kv_heads, head_dim, dtype, device):
        shape = (num_layers, size, num_kv_heads, head_dim)
        self.k_buffer = torch.empty(shape, dtype=dtype, device=device)
        self.v_buffer = torch.empty(shape, dtype=dtype, device=device)
