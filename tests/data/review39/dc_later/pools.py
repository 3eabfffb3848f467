import torch
from spec import KVSpec


class DeviceKVPool:
    def __init__(self, size, layer_num, head_num, dtype):
        self.spec = spec = KVSpec(head_num, dtype=dtype)
        self.k_buffer = [torch.zeros((size, spec.head_num, spec.head_dim), dtype=spec.dtype) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, spec.head_num, spec.head_dim), dtype=spec.dtype) for _ in range(layer_num)]


class HostKVPool:
    def __init__(self, device_pool, size, layer_num):
        self.device_pool = device_pool
        spec = device_pool.spec
        self.k_buffer = torch.zeros((layer_num, size, spec.head_num, 64), dtype=spec.dtype)
        self.v_buffer = torch.zeros((layer_num, size, spec.head_num, 64), dtype=spec.dtype)
