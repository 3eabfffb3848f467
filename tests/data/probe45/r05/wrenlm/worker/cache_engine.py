import torch

from ..config import GiB, kv_cache_torch_dtype


def _block_shape(cache_config, model_config, parallel, num_blocks):
    return (
        2,
        num_blocks,
        cache_config.block_size,
        model_config.get_num_kv_heads(parallel),
        model_config.get_head_size(),
    )


class DeviceBlockCache:
    def __init__(self, cache_config, model_config, parallel, device="cuda"):
        self.block_size = cache_config.block_size
        self.num_blocks = cache_config.num_gpu_blocks
        self.dtype = kv_cache_torch_dtype(cache_config, model_config)
        shape = _block_shape(cache_config, model_config, parallel, self.num_blocks)
        self.gpu_cache = [
            torch.zeros(shape, dtype=self.dtype, device=device)
            for _ in range(model_config.get_num_layers(parallel))
        ]


class SwapBlockCache:
    def __init__(self, cache_config, model_config, parallel, device="cpu"):
        self.block_size = cache_config.block_size
        self.dtype = kv_cache_torch_dtype(cache_config, model_config)
        num_layers = model_config.get_num_layers(parallel)
        probe = _block_shape(cache_config, model_config, parallel, 1)
        block_bytes = num_layers * self.dtype.itemsize
        for d in probe:
            block_bytes *= d
        self.num_blocks = int(cache_config.swap_space_gib * GiB) // block_bytes
        shape = _block_shape(cache_config, model_config, parallel, self.num_blocks)
        self.cpu_cache = [
            torch.empty(shape, dtype=self.dtype, device=device) for _ in range(num_layers)
        ]
