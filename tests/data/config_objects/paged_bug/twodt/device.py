import torch
from twodt.config import ServingConfig

class PagedDeviceKV:
    def __init__(self, config: ServingConfig, num_pages: int):
        self.page_size = config.page_size
        self.num_pages = num_pages
        self.k_pages = torch.empty((config.num_hidden_layers, num_pages, config.page_size,
                                    config.num_key_value_heads, config.head_dim), dtype=config.kv_cache_dtype)
        self.v_pages = torch.empty((config.num_hidden_layers, num_pages, config.page_size,
                                    config.num_key_value_heads, config.head_dim), dtype=config.kv_cache_dtype)
