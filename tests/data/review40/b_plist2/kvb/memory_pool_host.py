import torch


class MHATokenToKVPoolHost:
    def __init__(self, device_pool, size, page_size):
        self.device_pool = device_pool
        self.size = size
        self.page_size = page_size
        self.head_num = device_pool.head_num
        self.head_dim = device_pool.head_dim
        self.layer_num = device_pool.layer_num
        self.kv_buffer = torch.empty(
            (2, self.layer_num, self.size, self.head_num, self.head_dim),
            dtype=torch.float16,
            device="cpu",
        )
