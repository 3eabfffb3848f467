from typing import Optional

from lumen.config import EngineSettings
from lumen.kv_spec import layer_specs
from lumen.offload.cpu_tier import HostOffloadArena
from lumen.worker.device_cache import PagedLayerCache


class ModelRunnerLite:
    def __init__(self, settings: Optional[EngineSettings] = None):
        self.settings = settings or EngineSettings()
        self.gpu_cache = None
        self.offload = None

    def initialize_kv_cache(self, device="cuda", host_device="cpu"):
        specs = layer_specs(self.settings)
        cache_cfg = self.settings.cache
        self.gpu_cache = PagedLayerCache.from_budget(
            specs, cache_cfg.gpu_kv_budget_bytes, device=device)
        if cache_cfg.cpu_offload_bytes > 0:
            self.offload = HostOffloadArena(specs, cache_cfg.cpu_offload_bytes, device=host_device)
        return self.gpu_cache, self.offload
