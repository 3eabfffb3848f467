import os
from typing import List

import torch

from tgilite.layers.kv_layout import nhd_page_shape, resolve_dtype, scale_page_shape


class DiskSpillBuffer:
    """Host staging pages that evicted prefix pages are serialised from / restored into."""

    def __init__(self, model_info: dict, args: dict, device="cpu"):
        self.spill_dir = args["spill_dir"]
        self.page_size = args["page_size"]
        self.num_pages = args["spill_pages"]
        self.num_layers = model_info["num_layers"]
        kv_heads = model_info["num_kv_heads"] // args["num_shard"]
        head_size = model_info["head_size"]
        dtype = resolve_dtype(args.get("kv_dtype", model_info["dtype"]))
        self.page_bufs: List[torch.Tensor] = [
            torch.empty(nhd_page_shape(self.num_pages, self.page_size, kv_heads, head_size),
                        dtype=dtype, device=device)
            for _ in range(self.num_layers)
        ]
        self.scale_bufs: List[torch.Tensor] = [
            torch.empty(scale_page_shape(self.num_pages, self.page_size, kv_heads),
                        dtype=torch.float32, device=device)
            for _ in range(self.num_layers)
        ]

    def page_path(self, prefix_hash: str) -> str:
        return os.path.join(self.spill_dir, prefix_hash[:2], prefix_hash + ".kv")
