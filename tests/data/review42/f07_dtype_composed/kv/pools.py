import torch


class DeviceKVPool:
    def __init__(self, size: int, layer_num: int, head_num: int, head_dim: int,
                 dtype: torch.dtype, device="cuda"):
        self.size, self.layer_num, self.head_num, self.head_dim = size, layer_num, head_num, head_dim
        self.dtype = dtype
        self.kv_buffer = [torch.empty((size, 2, head_num, head_dim), dtype=dtype, device=device)
                          for _ in range(layer_num)]


class HostRawPool:
    """Pinned host staging area: a token's K and V as raw bytes."""

    def __init__(self, device_pool: DeviceKVPool, size: int, token_stride: int, device="cpu"):
        self.size, self.token_stride = size, token_stride
        self.kv_buffer = [torch.empty((size, token_stride), dtype=torch.uint8, device=device)
                          for _ in range(device_pool.layer_num)]
