from .model_cfg import HybridAttnConfig
from .gpu_kv import HybridKVCache
from .host_kv import HostHybridKV


def create_kv_tiers(cfg=None):
    cfg = cfg or HybridAttnConfig()
    gpu = HybridKVCache(cfg)
    host = HostHybridKV(cfg)
    return gpu, host
