import torch

from fp8kv.device_pool import PagedKVPool


class HostPagedKVPool:
    def __init__(self, device_pool: PagedKVPool, num_host_pages: int):
        L, two, _, page, heads, dim = device_pool.kv_data.shape
        self.page_size = device_pool.page_size
        self.kv_data = torch.empty((L, two, num_host_pages, page, heads, dim),
                                   dtype=device_pool.dtype, pin_memory=True)
        self.kv_scale = None
        if device_pool.kv_dtype == "fp8":
            self.kv_scale = torch.empty((L, two, num_host_pages, page, heads),
                                        dtype=torch.float16, pin_memory=True)


def build_pools(num_pages, page_size, n_layers, kv_heads, head_dim, kv_dtype="bf16", host_factor=4):
    dev = PagedKVPool(num_pages, page_size, n_layers, kv_heads, head_dim, kv_dtype)
    return dev, HostPagedKVPool(dev, num_pages * host_factor)
