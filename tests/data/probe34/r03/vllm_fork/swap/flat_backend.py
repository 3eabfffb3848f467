"""Swap backend backed by a single flat byte arena.

One contiguous allocation keeps registration with RDMA / cuFile cheap; the
per-layer tensors are views into it.
"""
import torch

from ..config import resolve_cache_dtype


def bytes_per_block(block_size, num_kv_heads, head_size, dtype):
    elem = torch.empty((), dtype=dtype).element_size()
    return 2 * block_size * num_kv_heads * head_size * elem


class FlatSwapBackend:
    def __init__(self, cache_config, model_config, parallel_config, device="cpu"):
        self.block_size = cache_config.block_size
        self.num_blocks = cache_config.num_cpu_blocks
        self.num_kv_heads = model_config.get_num_kv_heads(parallel_config)
        self.head_size = model_config.get_head_size()
        self.num_layers = model_config.get_num_layers(parallel_config)
        self.dtype = resolve_cache_dtype(cache_config, model_config)

        self.layer_bytes = self.num_blocks * bytes_per_block(
            self.block_size, self.num_kv_heads, self.head_size, self.dtype)
        self._arena = torch.empty(self.num_layers * self.layer_bytes, dtype=torch.uint8,
                                  device=device, pin_memory=(str(device) == "cpu"))
        self.kv_cache = [self._layer_view(i) for i in range(self.num_layers)]

    def _layer_view(self, layer):
        raw = self._arena[layer * self.layer_bytes:(layer + 1) * self.layer_bytes]
        return raw.view(self.dtype).view(2, self.num_blocks, self.block_size,
                                         self.num_kv_heads, self.head_size)

    def store(self, gpu_cache, src_to_dst):
        for layer, dst in enumerate(self.kv_cache):
            for src_block, dst_block in src_to_dst.tolist():
                dst[:, dst_block].copy_(gpu_cache[layer][:, src_block], non_blocking=True)

    def load(self, gpu_cache, src_to_dst):
        for layer, src in enumerate(self.kv_cache):
            for src_block, dst_block in src_to_dst.tolist():
                gpu_cache[layer][:, dst_block].copy_(src[:, src_block], non_blocking=True)
