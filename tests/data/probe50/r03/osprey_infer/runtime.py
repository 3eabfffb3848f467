from dataclasses import dataclass

from osprey_infer.cache import DEVICE_POOLS, HOST_POOLS
from osprey_infer.cache.registry import attention_kind

# make sure the pool modules register themselves
import osprey_infer.cache.device  # noqa: F401
import osprey_infer.cache.host  # noqa: F401


@dataclass
class ServingConfig:
    max_total_tokens: int = 500_000
    page_size: int = 64
    kv_cache_dtype: str = "auto"
    tp_size: int = 1
    pp_size: int = 1
    pp_rank: int = 0
    host_mem_gb: float = 64.0


def build_cache_pools(hf_config, cfg, device="cuda", host_device="cpu"):
    kind = attention_kind(hf_config)
    dev = DEVICE_POOLS[kind](cfg, hf_config, device=device)
    host = HOST_POOLS[kind].from_device_pool(dev, hf_config, cfg.host_mem_gb, host_device=host_device)
    return dev, host
