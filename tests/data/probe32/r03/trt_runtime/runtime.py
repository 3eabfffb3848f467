"""Generation session setup."""
from .host_offload import SecondaryBlockPool
from .kv_cache_manager import KVCacheManager
from .model_config import ModelConfig


def create_kv_cache_managers(config=None, device="cuda", host_device=None):
    """Create the primary device pool and the secondary host pool.

    Returns ``(primary, secondary)``.
    """
    config = config or ModelConfig()
    if host_device is None:
        host_device = "meta" if device == "meta" else "cpu"
    primary = KVCacheManager(
        num_layers=config.num_layers,
        num_kv_heads=config.num_kv_heads,
        head_size=config.head_size,
        tokens_per_block=config.tokens_per_block,
        max_blocks=config.max_blocks,
        dtype=config.dtype,
        tp_size=config.tp_size,
        device=device,
    )
    secondary = SecondaryBlockPool(
        num_layers=config.num_layers,
        num_kv_heads=config.num_kv_heads,
        head_size=config.head_size,
        tokens_per_block=config.tokens_per_block,
        num_blocks=config.host_blocks,
        dtype=config.dtype,
        device=host_device,
    )
    return primary, secondary
