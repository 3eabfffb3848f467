"""Host (CPU) mirror of the page-row device pool: one row of the same width per (page, layer),
so a page of a layer is one contiguous copy each way. It keeps the device's slab (to find its
rows) and allocates its own rows as `kv_buffer`.

layout-audit fixture, after SGLang 0.5.23 `pool_host/minimax_m3_nvfp4.py`. Fixed version: the
host takes the row width from the record, padding included.
"""

import torch

from sglang.srt.mem_cache.device_pool_info import PageRowBufferInfo


class PageRowKVPoolHost:
    def __init__(
        self,
        buffer_info: PageRowBufferInfo,
        host_to_device_ratio: float,
        *,
        device_capacity_tokens: int,
        device: str = "cpu",
    ):
        self.device_slab = buffer_info.slab
        self.layer_num = len(buffer_info.rows)
        self.page_size = buffer_info.page_size
        self.row_bytes = buffer_info.row_bytes
        self.page_num = int(device_capacity_tokens * host_to_device_ratio) // self.page_size
        self.size = self.page_num * self.page_size
        self.kv_buffer = torch.empty(
            (self.page_num, self.layer_num, self.row_bytes), dtype=torch.uint8, device=device
        )
