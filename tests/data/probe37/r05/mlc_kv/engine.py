"""Engine-side creation of the KV state."""
from typing import Optional

from .paged_kv import PagedLatentKVCache
from .spec import MLAModelSpec, PagedKVConfig
from .spill import HostSpillTier


def create_kv_state(device: str = "cuda", model_spec: Optional[MLAModelSpec] = None,
                    kv_config: Optional[PagedKVConfig] = None):
    model_spec = model_spec or MLAModelSpec()
    kv_config = kv_config or PagedKVConfig()
    host_device = "meta" if str(device) == "meta" else "cpu"
    cache = PagedLatentKVCache(model_spec, kv_config, device=device)
    spill = HostSpillTier(model_spec, kv_config, device=host_device)
    return cache, spill
