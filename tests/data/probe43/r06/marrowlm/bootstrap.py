from .device_kv import QuantPagedKV
from .host_kv import QuantHostKV
from .kv_config import QuantCacheConfig


def build_quant_caches(cfg: QuantCacheConfig = None, **overrides):
    cfg = (cfg or QuantCacheConfig()).model_copy(update=overrides)
    return QuantPagedKV(cfg), QuantHostKV.from_config(cfg)
