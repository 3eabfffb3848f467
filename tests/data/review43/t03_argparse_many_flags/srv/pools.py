import torch

class DeviceKV:
    def __init__(self, size, layer_num, heads, head_dim, dtype, device="cuda"):
        self.size, self.layer_num = size, layer_num
        self.k_buffer = [torch.empty((size, heads, head_dim), dtype=dtype, device=device)
                         for _ in range(layer_num)]
        self.v_buffer = [torch.empty((size, heads, head_dim), dtype=dtype, device=device)
                         for _ in range(layer_num)]

class HostKV:
    def __init__(self, size, layer_num, row_bytes, device="cpu"):
        self.k_buffer = [torch.empty((size, row_bytes), dtype=torch.uint8, device=device)
                         for _ in range(layer_num)]
        self.v_buffer = [torch.empty((size, row_bytes), dtype=torch.uint8, device=device)
                         for _ in range(layer_num)]
