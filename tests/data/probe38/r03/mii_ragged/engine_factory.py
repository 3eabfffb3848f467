from .kv_config import RaggedEngineConfig
from .blocked_kv import BlockedKVCache
from .offload import HostBlockTier


def build_ragged_kv(config: RaggedEngineConfig = RaggedEngineConfig(),
                    device="cuda", host_device="cpu"):
    layers, heads, head_size = config.local_cache_shape()
    mem = config.memory
    usable = mem.device_total_bytes - mem.reserve_bytes if mem.mode == "reserve" else mem.reserve_bytes

    dev_kwargs = {
        "block_size": config.kv.block_size,
        "num_layers": layers,
        "kv_heads": heads,
        "head_size": head_size,
        "dtype": config.kv.cache_dtype,
        "memory_bytes": usable,
        "device": device,
    }
    device_cache = BlockedKVCache(**dev_kwargs)

    host_kwargs = {
        "num_layers": layers,
        "kv_heads": heads,
        "head_size": head_size,
        "src_dtype": device_cache.dtype,
        "block_size": mem.host_block_size,
        "capacity_bytes": mem.host_offload_bytes,
        "device": host_device,
        "pin_memory": True,
    }
    host_tier = HostBlockTier(**host_kwargs)
    return device_cache, host_tier


def describe_kv(device_cache: BlockedKVCache, host_tier: HostBlockTier) -> str:
    dev_tokens = device_cache.num_blocks * device_cache.block_size
    host_tokens = host_tier.tokens_capacity()
    return (f"device: {device_cache.num_blocks} blocks x {device_cache.block_size} tok "
            f"({dev_tokens} tok); host: {host_tier.num_blocks} blocks x "
            f"{host_tier.block_size} tok ({host_tokens} tok)")
