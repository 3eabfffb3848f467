"""A device pool that keeps each (layer, page) as one byte row: packed FP4 K and V with their
block scales, each part padded to 128 bytes (the copy kernels move whole rows).

layout-audit fixture, after SGLang 0.5.23 `mem_cache/minimax_m3_nvfp4_pool.py`.
"""

import torch

from sglang.srt.mem_cache.device_pool_info import PageRowBufferInfo

PAGE_ROW_ALIGN = 128
SCALE_GROUP = 16


def page_row_bytes(head_num: int, head_dim: int, page_size: int) -> int:
    payload = head_num * page_size * head_dim // 2
    scale = head_num * page_size * head_dim // SCALE_GROUP
    parts = (payload, scale, payload, scale)
    return sum(-(-part // PAGE_ROW_ALIGN) * PAGE_ROW_ALIGN for part in parts)


class PageRowKVPool:
    def __init__(
        self,
        size: int,
        page_size: int,
        dtype: torch.dtype,
        head_num: int,
        head_dim: int,
        layer_num: int,
        device: str,
    ):
        self.size = size
        self.page_size = page_size
        self.source_dtype = dtype  # the model's dtype; the cache itself is packed bytes
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.num_pages = size // page_size + 1
        self.row_bytes = page_row_bytes(head_num, head_dim, page_size)
        self.slab = torch.zeros(
            (layer_num, self.num_pages, self.row_bytes), dtype=torch.uint8, device=device
        )
        self.rows = list(self.slab.unbind(0))

    def get_buffer_info(self) -> PageRowBufferInfo:
        return PageRowBufferInfo(
            slab=self.slab,
            rows=tuple(self.rows),
            row_bytes=self.row_bytes,
            page_size=self.page_size,
            num_pages=self.num_pages,
            head_num=self.head_num,
            head_dim=self.head_dim,
        )
