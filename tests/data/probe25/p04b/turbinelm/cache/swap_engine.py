import torch

from turbinelm.cache import layout
from turbinelm.messages import EngineCacheOptions
from turbinelm.model_meta import ArchDims


class SwapBlockCache:
    """CPU swap space; blocks are swapped in/out with one copy per layer per tensor."""

    def __init__(self, opts: EngineCacheOptions, dims: ArchDims, device="cpu"):
        self.num_blocks = opts.num_cpu_blocks
        self.block_size = opts.block_size
        self.num_layers = dims.num_layers
        pin = str(device) == "cpu" and torch.cuda.is_available()
        kv_dtype = layout.cache_dtype(opts, dims)

        def alloc(shape, dtype):
            return torch.empty((self.num_blocks,) + shape, dtype=dtype, device=device,
                               pin_memory=pin)

        self.host_k = [alloc(layout.k_block_shape(opts, dims), kv_dtype)
                       for _ in range(self.num_layers)]
        self.host_v = [alloc(layout.k_block_shape(opts, dims), kv_dtype)
                       for _ in range(self.num_layers)]
        self.host_k_sz = []
        self.host_v_sz = []
        if opts.quant_policy:
            qshape = layout.quant_block_shape(opts, dims)
            self.host_k_sz = [alloc(qshape, dims.dtype) for _ in range(self.num_layers)]
            self.host_v_sz = [alloc(qshape, dims.dtype) for _ in range(self.num_layers)]
