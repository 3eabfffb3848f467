import torch
from twodt.config import ServingConfig
from twodt.device import PagedDeviceKV

class PagedHostKV:
    def __init__(self, config: ServingConfig, device_kv: PagedDeviceKV, num_pages: int):
        self.device_kv = device_kv
        self.page_size = config.page_size
        self.num_pages = num_pages
        dims = (config.num_hidden_layers, num_pages, config.page_size, config.num_key_value_heads, config.head_dim)
        self.k_pages = torch.empty(dims, dtype=config.torch_dtype)   # BUG: model dtype, not cache dtype
        self.v_pages = torch.empty(dims, dtype=config.torch_dtype)
