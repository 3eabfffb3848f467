import torch
from torch import nn


class DevicePool(nn.Module):
    def __init__(self, size, head_num, head_dim, layer_num, dtype, device):
        super().__init__()
        self.size = size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.dtype = dtype
        self.k_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.register_buffer("scale", torch.ones((), dtype=torch.float32, device=device))


class HostPool:
    def __init__(self, device_pool, host_size):
        self.device_pool = device_pool
        self.size = host_size
        # plain attributes only (registered buffers live in _buffers, not in __dict__)
        state = device_pool.__dict__
        dtype = state["scale"].dtype if "scale" in state else state["dtype"]
        shape = (host_size, device_pool.head_num, device_pool.head_dim)
        self.k_buffer = [torch.zeros(shape, dtype=dtype) for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.zeros(shape, dtype=dtype) for _ in range(device_pool.layer_num)]


def build(device="cuda"):
    dev = DevicePool(100, 8, 128, 4, torch.bfloat16, device)
    host = HostPool(dev, 200)
    return dev, host
