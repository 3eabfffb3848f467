from typing import Optional

from trellis.bindings.kv_cache_config import KvCacheSettings
from trellis.models.config import DEFAULT_PRETRAINED
from trellis.runtime.primary_pool import PrimaryBlockPool
from trellis.runtime.secondary_pool import SecondaryBlockPool


def create_kv_pools(model_cfg: Optional[dict] = None, kv_settings: Optional[KvCacheSettings] = None,
                    device="cuda", host_device="cpu"):
    model_cfg = dict(DEFAULT_PRETRAINED, **(model_cfg or {}))
    kv_settings = kv_settings or KvCacheSettings()
    primary = PrimaryBlockPool(model_cfg, kv_settings, device=device)
    secondary = None
    if kv_settings.host_cache_size and kv_settings.enable_block_reuse:
        secondary = SecondaryBlockPool(model_cfg, kv_settings, device=host_device)
    return primary, secondary
