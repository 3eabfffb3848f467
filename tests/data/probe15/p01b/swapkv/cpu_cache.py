import torch


class CPUSwapCache:
    def __init__(self, gpu_cache, num_cpu_blocks: int):
        self.block_size = gpu_cache.block_size
        self.kv_cache = []
        for layer in gpu_cache.kv_cache:
            shape = (2, num_cpu_blocks) + tuple(layer.shape[3:])
            self.kv_cache.append(torch.zeros(shape, dtype=layer.dtype, pin_memory=True))

    def swap_out(self, gpu_cache, mapping):
        for src, dst in zip(gpu_cache.kv_cache, self.kv_cache):
            for g, c in mapping.items():
                dst[:, c].copy_(src[:, g])
