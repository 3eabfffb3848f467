import torch

from .blocks import GpuBlockCache
from .config import STR_DTYPE_TO_TORCH_DTYPE, CacheConfig, ModelShape


class CpuSwapCache:
    """Swap space in host memory; block ids are shared with the block manager."""

    def __init__(self, shape: ModelShape, cache_cfg: CacheConfig, device="cpu"):
        self.dtype = STR_DTYPE_TO_TORCH_DTYPE.get(cache_cfg.cache_dtype, torch.get_default_dtype())
        self.block_size = cache_cfg.block_size
        block_bytes = GpuBlockCache.get_cache_block_size(shape, self.block_size, self.dtype)
        self.num_blocks = int(cache_cfg.swap_space_gib * (1 << 30)) // block_bytes
        kv_shape = GpuBlockCache.get_kv_cache_shape(
            self.num_blocks, self.block_size, shape.num_key_value_heads, shape.head_size
        )
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.cpu_cache = [
            torch.empty(kv_shape, dtype=self.dtype, device=device, pin_memory=pin)
            for _ in range(shape.num_hidden_layers)
        ]
