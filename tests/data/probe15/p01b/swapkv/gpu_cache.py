import torch

from swapkv.config import STR_DTYPE_TO_TORCH_DTYPE, CacheConfig, ModelConfig


class GPUCache:
    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig, num_gpu_blocks: int):
        self.block_size = cache_config.block_size
        if cache_config.cache_dtype == "auto":
            self.dtype = model_config.dtype
        else:
            self.dtype = STR_DTYPE_TO_TORCH_DTYPE[cache_config.cache_dtype]
        shape = (2, num_gpu_blocks, self.block_size,
                 model_config.get_num_kv_heads(), model_config.get_head_size())
        self.kv_cache = [
            torch.zeros(shape, dtype=self.dtype, device="cuda")
            for _ in range(model_config.get_num_layers())
        ]
