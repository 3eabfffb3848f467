from typing import Dict, List

import torch

from lumen_deploy.pytorch.engine.cache_desc import CacheDesc


class _BlockCacheBase:
    """Allocates one tensor per (buffer, layer) with shape [num_blocks, *desc.shape]."""

    BUFFERS = ("k_cache", "v_cache", "k_scales_zeros", "v_scales_zeros")

    def __init__(self, descs: Dict[str, CacheDesc], num_blocks: int, num_layers: int,
                 device: str) -> None:
        self.num_blocks = num_blocks
        self.num_layers = num_layers
        self.block_size = descs["k_cache"].shape[0]
        self.descs = descs
        for name in self.BUFFERS:
            layers: List[torch.Tensor] = []
            if name in descs:
                desc = descs[name]
                layers = [self._alloc((num_blocks, *desc.shape), desc.dtype, device)
                          for _ in range(num_layers)]
            setattr(self, name, layers)

    def _alloc(self, shape, dtype, device) -> torch.Tensor:
        return torch.empty(shape, dtype=dtype, device=device)

    @property
    def num_tokens(self) -> int:
        return self.num_blocks * self.block_size


class DeviceBlockCache(_BlockCacheBase):
    pass


class HostBlockCache(_BlockCacheBase):
    """Swap tier.  Pinned when running on a CUDA box."""

    def _alloc(self, shape, dtype, device) -> torch.Tensor:
        pin = device == "cpu" and torch.cuda.is_available()
        return torch.zeros(shape, dtype=dtype, device=device, pin_memory=pin)
