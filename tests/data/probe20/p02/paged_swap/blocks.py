import torch

from .config import STR_DTYPE_TO_TORCH_DTYPE, CacheConfig, ModelShape, model_dtype


class GpuBlockCache:
    """One [2, num_blocks, block_size, kv_heads, head_size] tensor per layer."""

    def __init__(self, shape: ModelShape, cache_cfg: CacheConfig, device="cuda"):
        if cache_cfg.cache_dtype == "auto":
            self.dtype = model_dtype(shape)
        else:
            self.dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_cfg.cache_dtype]
        self.block_size = cache_cfg.block_size
        self.num_blocks = cache_cfg.num_gpu_blocks
        kv_shape = self.get_kv_cache_shape(
            self.num_blocks, self.block_size, shape.num_key_value_heads, shape.head_size
        )
        self.gpu_cache = [
            torch.zeros(kv_shape, dtype=self.dtype, device=device)
            for _ in range(shape.num_hidden_layers)
        ]

    @staticmethod
    def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size):
        return (2, num_blocks, block_size, num_kv_heads, head_size)

    @staticmethod
    def get_cache_block_size(shape: ModelShape, block_size: int, dtype: torch.dtype) -> int:
        elem = torch.tensor([], dtype=dtype).element_size()
        per_layer = 2 * block_size * shape.num_key_value_heads * shape.head_size
        return per_layer * shape.num_hidden_layers * elem
