import torch


class HostTokenKVPool:
    def __init__(self, gpu_pool, capacity: int):
        self.capacity = capacity
        self.buf = torch.empty(
            (2, gpu_pool.num_layers, capacity, gpu_pool.kv_heads, gpu_pool.head_dim),
            dtype=gpu_pool.dtype, pin_memory=True)

    def write(self, gpu_pool, host_idx, dev_idx):
        self.buf[:, :, host_idx] = gpu_pool.buf[:, :, dev_idx].to("cpu", non_blocking=True)
