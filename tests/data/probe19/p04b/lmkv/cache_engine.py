import torch

from .args import default_args
from .layout import cache_dtype, k_block_shape, scale_dtype, scales_zeros_shape


class DeviceBlockCache:
    def __init__(self, args, device="cuda"):
        self.num_blocks = args.num_gpu_blocks
        self.block_size = args.block_size
        shape = (self.num_blocks,) + k_block_shape(args)
        self.k_caches = [torch.empty(shape, dtype=cache_dtype(args), device=device)
                         for _ in range(args.num_layers)]
        self.v_caches = [torch.empty(shape, dtype=cache_dtype(args), device=device)
                         for _ in range(args.num_layers)]
        self.k_scales_zeros = []
        self.v_scales_zeros = []
        if args.quant_policy in (4, 8):
            sz = (self.num_blocks,) + scales_zeros_shape(args)
            for _ in range(args.num_layers):
                self.k_scales_zeros.append(torch.empty(sz, dtype=scale_dtype(args), device=device))
                self.v_scales_zeros.append(torch.empty(sz, dtype=scale_dtype(args), device=device))


class HostSwapCache:
    """CPU blocks used when sequences are swapped out under memory pressure."""

    def __init__(self, args, device="cpu"):
        self.num_blocks = args.num_cpu_blocks
        self.block_size = args.block_size
        pin = torch.cuda.is_available() and str(device) == "cpu"
        quant = args.quant_policy in (4, 8)

        def alloc(shape, dtype):
            return torch.empty((self.num_blocks,) + shape, dtype=dtype, device=device,
                               pin_memory=pin)

        self.k_caches, self.v_caches = [], []
        self.k_scales_zeros, self.v_scales_zeros = [], []
        for _ in range(args.num_layers):
            self.k_caches.append(alloc(k_block_shape(args), cache_dtype(args)))
            self.v_caches.append(alloc(k_block_shape(args), cache_dtype(args)))
            if quant:
                self.k_scales_zeros.append(alloc(scales_zeros_shape(args), torch.float32))
                self.v_scales_zeros.append(alloc(scales_zeros_shape(args), torch.float32))


class CacheEngine:
    def __init__(self, args=None, device="cuda", host_device="cpu"):
        self.args = args or default_args()
        self.gpu = DeviceBlockCache(self.args, device=device)
        self.host = HostSwapCache(self.args, device=host_device)

    def swap_out(self, block_map):
        pairs = [(self.gpu.k_caches, self.host.k_caches), (self.gpu.v_caches, self.host.v_caches),
                 (self.gpu.k_scales_zeros, self.host.k_scales_zeros),
                 (self.gpu.v_scales_zeros, self.host.v_scales_zeros)]
        for src_list, dst_list in pairs:
            for src, dst in zip(src_list, dst_list):
                for s, d in block_map.items():
                    dst[d].copy_(src[s], non_blocking=True)
