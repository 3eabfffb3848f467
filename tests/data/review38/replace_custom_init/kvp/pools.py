import dataclasses
from dataclasses import dataclass

import torch


@dataclass
class HostSpec:
    heads: int
    dim: int
    dtype: torch.dtype

    def __init__(self, heads, dim):
        self.heads = heads
        self.dim = dim
        self.dtype = torch.float32


class DevicePool:
    def __init__(self, size, head_num, head_dim, layer_num, dtype, device):
        self.size = size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.dtype = dtype
        self.k_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]


class HostPool:
    def __init__(self, device_pool, host_size):
        self.device_pool = device_pool
        self.size = host_size
        spec = HostSpec(device_pool.head_num, 64)
        spec = dataclasses.replace(spec, dim=device_pool.head_dim)  # TypeError: unexpected 'dtype'
        shape = (host_size, spec.heads, spec.dim)
        self.k_buffer = [torch.zeros(shape, dtype=spec.dtype) for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.zeros(shape, dtype=spec.dtype) for _ in range(device_pool.layer_num)]


def build(device="cuda"):
    dev = DevicePool(100, 8, 128, 4, torch.bfloat16, device)
    host = HostPool(dev, 200)
    return dev, host
