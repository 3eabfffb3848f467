from typing import List

import torch

from turbinelm.cache import layout
from turbinelm.messages import EngineCacheOptions
from turbinelm.model_meta import ArchDims


class DeviceBlockCache:
    def __init__(self, opts: EngineCacheOptions, dims: ArchDims, device="cuda"):
        self.opts = opts
        self.num_blocks = opts.num_gpu_blocks
        self.block_size = opts.block_size
        self.num_layers = dims.num_layers
        kv_dtype = layout.cache_dtype(opts, dims)
        n = self.num_blocks
        self.k_caches: List[torch.Tensor] = []
        self.v_caches: List[torch.Tensor] = []
        self.k_scales_zeros: List[torch.Tensor] = []
        self.v_scales_zeros: List[torch.Tensor] = []
        for _ in range(self.num_layers):
            self.k_caches.append(torch.empty((n,) + layout.k_block_shape(opts, dims),
                                             dtype=kv_dtype, device=device))
            self.v_caches.append(torch.empty((n,) + layout.v_block_shape(opts, dims),
                                             dtype=kv_dtype, device=device))
            if opts.quant_policy:
                q = (n,) + layout.quant_block_shape(opts, dims)
                self.k_scales_zeros.append(torch.empty(q, dtype=dims.dtype, device=device))
                self.v_scales_zeros.append(torch.empty(q, dtype=dims.dtype, device=device))
