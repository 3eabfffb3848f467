"""Host block tier used for swap-in / swap-out of preempted sequences."""
import torch

from .config import CacheConfig, ModelConfig


def _host_layouts(model_cfg: ModelConfig, cache_cfg: CacheConfig):
    heads, bs = model_cfg.num_key_value_heads, cache_cfg.block_size
    store = cache_cfg.kv_storage_dtype(model_cfg)
    packed = model_cfg.head_dim // cache_cfg.quant_policy.pack_factor
    layouts = {
        "key_cache": ((bs, heads, packed), store),
        "value_cache": ((bs, heads, packed), store),
    }
    if cache_cfg.quantized:
        layouts["scales_zeros"] = ((2, bs, heads), model_cfg.dtype)
    return layouts


class HostCacheTier:
    """CPU blocks with the same per-block layout as :class:`CacheEngine`."""

    def __init__(self, engine, device="cpu"):
        self.num_layers = engine.model_config.num_layers
        self.num_blocks = engine.cache_config.num_cpu_blocks
        self.block_size = engine.cache_config.block_size
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        lead = (self.num_layers, self.num_blocks)
        for name, (shape, dtype) in _host_layouts(engine.model_config, engine.cache_config).items():
            setattr(self, name, torch.empty(lead + shape, dtype=dtype, device=device, pin_memory=pin))
        if not engine.cache_config.quantized:
            self.scales_zeros = None

    def swap_out(self, engine, src_to_dst):
        for name, gpu in engine.buffers().items():
            cpu = getattr(self, name)
            for src, dst in src_to_dst.items():
                cpu[:, dst].copy_(gpu[:, src], non_blocking=True)

    def swap_in(self, engine, src_to_dst):
        for name, gpu in engine.buffers().items():
            cpu = getattr(self, name)
            for src, dst in src_to_dst.items():
                gpu[:, dst].copy_(cpu[:, src], non_blocking=True)
