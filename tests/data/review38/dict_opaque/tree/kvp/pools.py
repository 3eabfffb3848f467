import torch

from extlib.base import KVCache


class DevicePool(KVCache):
    def __init__(self, size, head_num, head_dim, layer_num, dtype, device):
        super().__init__(size, dtype, layer_num)
        self.layer_num = layer_num
        self.head_num = head_num
        self.head_dim = head_dim
        self.k_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]


class HostPool:
    def __init__(self, device_pool, host_size, head_num, head_dim, layer_num):
        self.device_pool = device_pool
        self.size = host_size
        state = device_pool.__dict__
        # the host mirrors the device's element type; fall back to fp32 staging
        dtype = state.get("dtype", torch.float32)
        self.k_buffer = [torch.zeros((host_size, head_num, head_dim), dtype=dtype) for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.zeros((host_size, head_num, head_dim), dtype=dtype) for _ in range(device_pool.layer_num)]


def build(device="cuda"):
    dev = DevicePool(100, 8, 128, 4, torch.bfloat16, device)
    host = HostPool(dev, 200, 8, 128, 4)
    return dev, host
