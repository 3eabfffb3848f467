import torch

from kvpkg.spec import KVSpec


class MHATokenToKVPoolHost:
    def __init__(self, device_pool, size, page_size, layer_num):
        self.device_pool = device_pool
        self.size = size
        self.page_size = page_size
        self.layer_num = layer_num
        # a host-side copy of the layout record
        spec = KVSpec(device_pool.head_num, device_pool.head_dim, device_pool.layer_num)
        self.head_num = spec.head_num
        self.head_dim = spec.head_dim
        self.dtype = spec.dtype
        self.kv_buffer = torch.empty(
            (2, self.layer_num, self.size, self.head_num, self.head_dim),
            dtype=self.dtype,
            device="cpu",
        )
