"""Device-side block cache."""
import torch

from .config import CacheConfig, ModelConfig


def key_block_shape(model_cfg: ModelConfig, cache_cfg: CacheConfig):
    head_dim = model_cfg.head_dim // cache_cfg.quant_policy.pack_factor
    return (cache_cfg.block_size, model_cfg.num_key_value_heads, head_dim)


def value_block_shape(model_cfg: ModelConfig, cache_cfg: CacheConfig):
    return key_block_shape(model_cfg, cache_cfg)


def quant_meta_block_shape(model_cfg: ModelConfig, cache_cfg: CacheConfig):
    """Per-token (scale, zero) pairs for K and V."""
    return (2, cache_cfg.block_size, model_cfg.num_key_value_heads, 2)


class CacheEngine:
    """Owns the GPU blocks: ``[num_layers, num_blocks, *block_shape]`` per buffer."""

    def __init__(self, cache_config: CacheConfig, model_config: ModelConfig, device="cuda"):
        self.cache_config = cache_config
        self.model_config = model_config
        self.device = device
        self.num_layers = model_config.num_layers
        self.num_blocks = cache_config.num_gpu_blocks
        self.block_size = cache_config.block_size
        store = cache_config.kv_storage_dtype(model_config)
        lead = (self.num_layers, self.num_blocks)
        self.key_cache = torch.empty(lead + key_block_shape(model_config, cache_config), dtype=store, device=device)
        self.value_cache = torch.empty(lead + value_block_shape(model_config, cache_config), dtype=store, device=device)
        self.scales_zeros = None
        if cache_config.quantized:
            self.scales_zeros = torch.empty(
                lead + quant_meta_block_shape(model_config, cache_config), dtype=model_config.dtype, device=device
            )

    def buffers(self):
        named = {"key_cache": self.key_cache, "value_cache": self.value_cache}
        if self.scales_zeros is not None:
            named["scales_zeros"] = self.scales_zeros
        return named
