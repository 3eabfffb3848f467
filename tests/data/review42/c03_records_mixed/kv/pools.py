from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class LayerCache:
    layer_id: int
    k: torch.Tensor
    v: torch.Tensor
    k_scale: Optional[torch.Tensor] = None


class DeviceKVPool:
    def __init__(self, size: int, layer_num: int, head_num: int, head_dim: int,
                 dtype=torch.bfloat16, device="cuda"):
        self.size, self.layer_num, self.head_num, self.head_dim = size, layer_num, head_num, head_dim
        self.dtype = dtype
        self.caches = [
            LayerCache(layer_id=i,
                       k=torch.empty((size, head_num, head_dim), dtype=dtype, device=device),
                       v=torch.empty((size, head_num, head_dim), dtype=dtype, device=device))
            for i in range(layer_num)
        ]


class HostKVPool:
    def __init__(self, device_pool: DeviceKVPool, size: int, device="cpu"):
        self.size = size
        d = device_pool
        self.caches = [
            LayerCache(layer_id=c.layer_id,
                       k=torch.empty((size, d.head_num, d.head_dim), dtype=d.dtype, device=device),
                       v=torch.empty((size, d.head_num * d.head_dim), dtype=d.dtype,
                                     device=device))
            for c in device_pool.caches
        ]
