import torch


class DeviceKVPool:
    def __init__(self, size: int, layer_num: int, head_num: int, head_dim: int = 128,
                 dtype=torch.bfloat16, device="cuda"):
        self.size, self.layer_num, self.head_num, self.head_dim = size, layer_num, head_num, head_dim
        self.dtype = dtype
        self.k_buffer, self.v_buffer = (list(x) for x in zip(*self._all_layers(device)))

    def _one(self, device):
        yield torch.empty((self.size, self.head_num, self.head_dim), dtype=self.dtype,
                          device=device)
        yield torch.empty((self.size, self.head_num, self.head_dim), dtype=self.dtype,
                          device=device)

    def _all_layers(self, device):
        for _ in range(self.layer_num):
            yield tuple(self._one(device))


class HostKVPool:
    def __init__(self, device_pool: DeviceKVPool, size: int, device="cpu"):
        self.size = size
        self.k_buffer = [torch.empty((size, device_pool.head_num, device_pool.head_dim),
                                     dtype=device_pool.dtype, device=device)
                         for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.empty((size, device_pool.head_num, device_pool.head_dim),
                                     dtype=torch.float32, device=device)
                         for _ in range(device_pool.layer_num)]
