"""Ray Serve deployment wrapper for the hybrid model (ray is optional for tests)."""
from .cache_pool import HybridCachePool
from .config import model_config, runtime_settings
from .kv_spec import KVSpec
from .offload import HostKVOffloader

try:  # pragma: no cover
    from ray import serve
    _deployment = serve.deployment(num_replicas=1, ray_actor_options={"num_gpus": 1})
except ImportError:  # local dev / unit tests
    def _deployment(cls):
        return cls


@_deployment
class HybridLLMDeployment:

    def __init__(self, model_overrides: dict = None):
        self.settings = runtime_settings()
        self.model_cfg = model_config(model_overrides)
        self.spec = KVSpec.from_model_config(self.model_cfg, self.settings.block_size,
                                             self.settings.kv_dtype)
        self.pool, self.host = self._init_caches()

    def _init_caches(self):
        s = self.settings
        pool = HybridCachePool(self.spec, s.num_gpu_blocks, s.max_num_seqs, device=s.device)
        host_blocks = int(s.num_gpu_blocks * s.host_offload_ratio)
        host = HostKVOffloader(self.spec, host_blocks, device=s.host_device)
        return pool, host

    async def __call__(self, request):
        raise NotImplementedError
