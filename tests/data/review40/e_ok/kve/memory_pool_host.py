import torch


class HybridTokenToKVPoolHost:
    def __init__(self, device_pool, size: int, page_size: int):
        self.device_pool = device_pool
        self.size = size
        self.page_size = page_size
        arch = device_pool.arch
        self.dtype = device_pool.dtype
        self.kv_buffer = torch.empty(
            (2, arch.num_hidden_layers, self.size, arch.num_kv_heads, arch.head_dim),
            dtype=self.dtype, device="cpu",
        )
        # sliding-window layers mirrored
        self.swa_kv_buffer = torch.empty(
            (2, arch.num_swa_layers, self.size, arch.num_kv_heads, arch.head_dim),
            dtype=self.dtype, device="cpu",
        )
