import torch
from vendor_ext import memory_saver


class MHATokenToKVPool:
    def __init__(self, size: int, layer_num: int, head_num: int, head_dim: int, dtype: torch.dtype, device="cuda"):
        self.size = size
        self.layer_num = layer_num
        self.head_num = head_num
        self.head_dim = head_dim
        self.dtype = dtype
        self.kv_buffer = torch.zeros((layer_num, size + 1, 2, head_num, head_dim), dtype=dtype, device=device)
        if memory_saver.enabled():
            # the padded slot 0 is written by dummy requests: keep it zero
            self.kv_buffer[:, 0] = 0


class MHATokenToKVPoolHost:
    def __init__(self, device_pool: MHATokenToKVPool, host_to_device_ratio: float = 2.0, device="cpu"):
        self.device_pool = device_pool
        self.size = int(device_pool.size * host_to_device_ratio)
        self.kv_buffer = torch.zeros((device_pool.layer_num, self.size, 2, device_pool.head_num, device_pool.head_dim), dtype=torch.float32, device=device)
