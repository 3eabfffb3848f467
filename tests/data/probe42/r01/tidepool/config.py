import enum
from dataclasses import dataclass

import torch


class MirrorLayout(enum.Enum):
    LAYER_FIRST = "layer_first"
    PAGE_FIRST = "page_first"

    def shape(self, layer_num, num_pages, page_shape):
        if self is MirrorLayout.LAYER_FIRST:
            return (layer_num, num_pages) + tuple(page_shape)
        return (num_pages, layer_num) + tuple(page_shape)


@dataclass
class PoolConfig:
    num_layers: int = 24
    num_kv_heads: int = 8
    head_dim: int = 128
    dtype: torch.dtype = torch.bfloat16
    page_size: int = 16
    num_device_pages: int = 512
    # host mirror holds host_ratio x as many pages as the device ledger
    host_ratio: float = 2.0
    host_layout: str = "layer_first"
    device: str = "cuda"
    host_device: str = "cpu"
    pin_memory: bool = True
