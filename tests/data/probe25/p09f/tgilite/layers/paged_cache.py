from typing import List

import torch

from tgilite.layers.kv_layout import is_fp8, nhd_page_shape, resolve_dtype, scale_page_shape


class FlashPagedCache:
    def __init__(self, model_info: dict, args: dict, device="cuda"):
        self.page_size = args["page_size"]
        self.num_pages = args["max_total_tokens"] // self.page_size
        self.num_layers = model_info["num_layers"]
        self.kv_heads = model_info["num_kv_heads"] // args["num_shard"]
        self.head_size = model_info["head_size"]
        self.dtype = resolve_dtype(args["kv_dtype"])
        self.kv_data: List[torch.Tensor] = []
        self.kv_scales: List[torch.Tensor] = []
        for _ in range(self.num_layers):
            self.kv_data.append(torch.empty(
                nhd_page_shape(self.num_pages, self.page_size, self.kv_heads, self.head_size),
                dtype=self.dtype, device=device))
            self.kv_scales.append(torch.ones(
                scale_page_shape(self.num_pages, self.page_size, self.kv_heads),
                dtype=torch.float32, device=device))
        self.fp8 = is_fp8(self.dtype)
