import enum
from dataclasses import dataclass

import torch


class QuantMode(enum.Enum):
    NONE = 16
    INT8 = 8
    INT4 = 4

    @property
    def bits(self) -> int:
        return self.value


class KVLayout(enum.Enum):
    HND = "hnd"  # [pages, 2, heads, page_size, dim]
    NHD = "nhd"  # [pages, 2, page_size, heads, dim]


def packed_width(head_dim: int, mode: QuantMode) -> int:
    """Number of storage elements per head for a quantized K or V row."""
    if mode is QuantMode.NONE:
        return head_dim
    return head_dim * mode.bits // 8


@dataclass
class Q4CacheConfig:
    # Mistral-7B-v0.3
    n_layers: int = 32
    n_kv_heads: int = 8
    head_dim: int = 128
    page_size: int = 32
    num_pages: int = 8192
    quant: QuantMode = QuantMode.INT4
    layout: KVLayout = KVLayout.HND
    param_dtype: torch.dtype = torch.float16
    host_pages_ratio: int = 4
