import torch


class MHATokenToKVPool:
    def __init__(self, size: int, num_layers: int, head_num: int, head_dim: int,
                 dtype=torch.float16, device="cuda"):
        self.size, self.layer_num = size, num_layers
        self.head_num, self.head_dim, self.dtype = head_num, head_dim, dtype
        self.k_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device=device)
                         for _ in range(num_layers)]
        self.v_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device=device)
                         for _ in range(num_layers)]

    def token_bytes(self) -> int:
        return self.head_num * self.head_dim * self.dtype.itemsize


class HostByteMirror:
    """Raw-byte host mirror: the caller passes the bytes of one token's K (or V) row."""

    def __init__(self, device_pool: MHATokenToKVPool, size: int, row_bytes: int,
                 device="cpu"):
        self.size = size
        self.row_bytes = row_bytes
        self.k_buffer = [torch.empty((size, row_bytes), dtype=torch.uint8, device=device)
                         for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.empty((size, row_bytes), dtype=torch.uint8, device=device)
                         for _ in range(device_pool.layer_num)]
