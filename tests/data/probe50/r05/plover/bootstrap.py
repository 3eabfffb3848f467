import json

from plover.config import CacheArgs, Gemma2Config
from plover.gpu_cache import HybridWindowKVCache
from plover.offload import HostOffloadCache


def load_caches(config_path_or_dict, cache_args=None, device="cuda", host_device="cpu"):
    if isinstance(config_path_or_dict, dict):
        raw = config_path_or_dict
    else:
        with open(config_path_or_dict) as f:
            raw = json.load(f)
    cfg = Gemma2Config.from_dict(raw)
    cache_args = cache_args or CacheArgs()
    gpu = HybridWindowKVCache(cfg, cache_args, device=device)
    host = HostOffloadCache(cfg, cache_args, host_device=host_device)
    return gpu, host
