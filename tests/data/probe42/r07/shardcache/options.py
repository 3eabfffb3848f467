import enum
from dataclasses import dataclass

import torch


class ShelfLayout(enum.Enum):
    LAYER_FIRST = "layer_first"
    PAGE_FIRST = "page_first"


@dataclass
class CacheOptions:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    tp_size: int = 4
    model_dtype: torch.dtype = torch.float16
    kv_cache_dtype: str = "auto"
    max_tokens: int = 65536
    host_tokens: int = 196608
    page_size: int = 64
    shelf_layout: str = "page_first"
    device: str = "cuda"
    host_device: str = "cpu"
