"""The record a page-row device pool gives its host mirror.

layout-audit fixture, after SGLang 0.5.23 `mem_cache/device_pool_info.py` (`PageRowBufferInfo`).
"""

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class PageRowBufferInfo:
    slab: torch.Tensor
    rows: tuple[torch.Tensor, ...]
    row_bytes: int
    page_size: int
    num_pages: int
    head_num: int
    head_dim: int
