from .config import EngineConfig, KVQuantConfig
from .device_cache import QuantKVDeviceCache
from .host_cache import QuantKVHostCache


def build_hierarchical_cache(cfg: EngineConfig, quant: KVQuantConfig):
    heads = cfg.local_kv_heads
    device_cache = QuantKVDeviceCache(
        num_tokens=cfg.gpu_tokens,
        num_layers=cfg.num_layers,
        num_heads=heads,
        head_dim=cfg.head_dim,
        quant=quant,
        device=cfg.device,
    )
    host_cache = QuantKVHostCache(
        num_tokens=cfg.host_tokens,
        num_layers=cfg.num_layers,
        num_heads=heads,
        head_dim=cfg.head_dim,
        device=cfg.host_device,
        payload_dtype=quant.payload_dtype,
        scale_dtype=quant.scale_dtype,
    )
    return device_cache, host_cache
