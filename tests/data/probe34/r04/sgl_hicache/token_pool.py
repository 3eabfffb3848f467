"""Device token-to-KV pool."""
import torch


class MHATokenToKVPool:
    def __init__(self, size, page_size, dtype, head_num, head_dim, layer_num, device):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.device = device
        self.kv_buffer = torch.zeros((layer_num, 2, size, head_num, head_dim), dtype=dtype, device=device)

    @property
    def k_buffer(self):
        return self.kv_buffer[:, 0]

    @property
    def v_buffer(self):
        return self.kv_buffer[:, 1]

    def set_kv_buffer(self, layer_id, loc, cache_k, cache_v):
        self.kv_buffer[layer_id, 0, loc] = cache_k.to(self.dtype)
        self.kv_buffer[layer_id, 1, loc] = cache_v.to(self.dtype)
