import torch
from vendor_ext import draft_config


class MHATokenToKVPool:
    def __init__(self, size: int, layer_num: int, head_num: int, head_dim: int, dtype: torch.dtype, device="cuda"):
        self.size = size
        self.layer_num = layer_num
        self.head_num = head_num
        self.head_dim = head_dim
        self.dtype = dtype
        self.k_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        if draft_config.has_extra_layer():
            # one more layer for the EAGLE draft head, same layout
            self.k_buffer.append(torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device))
            self.v_buffer.append(torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device))


class MHATokenToKVPoolHost:
    def __init__(self, device_pool: MHATokenToKVPool, host_to_device_ratio: float = 2.0, device="cpu"):
        self.device_pool = device_pool
        self.size = int(device_pool.size * host_to_device_ratio)
        self.k_buffer = [torch.zeros((self.size, device_pool.head_num, device_pool.head_dim), dtype=torch.float32, device=device) for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.zeros((self.size, device_pool.head_num, device_pool.head_dim), dtype=device_pool.dtype, device=device) for _ in range(device_pool.layer_num)]
