import itertools

import torch


def _id_stream(start: int = 0):
    n = start
    while True:
        yield n
        n += 1


class DeviceKVPool:
    def __init__(self, size: int, layer_num: int, head_num: int, head_dim: int = 128,
                 dtype=torch.bfloat16, device="cuda"):
        self.size, self.layer_num, self.head_num, self.head_dim = size, layer_num, head_num, head_dim
        self.dtype = dtype
        self._ids = _id_stream()
        self.pool_id = next(self._ids)
        self.k_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device=device)
                         for _ in range(layer_num)]
        self.v_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device=device)
                         for _ in range(layer_num)]


class HostKVPool:
    def __init__(self, device_pool: DeviceKVPool, size: int, device="cpu"):
        self.size = size
        self._ids = _id_stream(1000)
        self.pool_id = next(self._ids)
        self.k_buffer = [torch.empty((size, device_pool.head_num, device_pool.head_dim),
                                     dtype=device_pool.dtype, device=device)
                         for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.empty((size, device_pool.head_num, device_pool.head_dim),
                                     dtype=torch.float32, device=device)
                         for _ in range(device_pool.layer_num)]
