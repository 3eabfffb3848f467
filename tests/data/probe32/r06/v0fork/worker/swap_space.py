"""CPU swap space for preempted sequences."""
import torch

from .attn_backend import FlashAttentionBackend


class SwapSpace:
    """Per-layer CPU blocks keyed by global layer index."""

    def __init__(self, cache_config, model_config, parallel_config, device="cpu"):
        self.block_size = cache_config.block_size
        self.num_cpu_blocks = cache_config.num_cpu_blocks
        num_kv_heads = model_config.get_num_kv_heads(parallel_config)
        start, end = model_config.get_layers_start_end_indices(parallel_config)
        shape = FlashAttentionBackend.get_kv_cache_shape(
            self.num_cpu_blocks, self.block_size, num_kv_heads, model_config.head_size
        )
        pin = device == "cpu" and torch.cuda.is_available()
        self.kv_caches = {
            layer: torch.empty(shape, dtype=model_config.dtype, device=device, pin_memory=pin)
            for layer in range(start, end)
        }

    def swap_out(self, cache_engine, src_to_dst):
        for local, layer in enumerate(cache_engine.layer_range):
            FlashAttentionBackend.swap_blocks(cache_engine.kv_caches[local], self.kv_caches[layer], src_to_dst)

    def swap_in(self, cache_engine, src_to_dst):
        for local, layer in enumerate(cache_engine.layer_range):
            FlashAttentionBackend.swap_blocks(self.kv_caches[layer], cache_engine.kv_caches[local], src_to_dst)
