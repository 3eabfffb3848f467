from aphrodite_lite.common.config import EngineConfig
from aphrodite_lite.kv_transfer.lmc_connector import LMCacheConnector
from aphrodite_lite.task_handler.cache_engine import CacheEngine

DEFAULT_ENGINE_ARGS = {
    "model": {"model": "mistralai/Mistral-7B-Instruct-v0.3"},
    "cache": {"cache_dtype": "int4", "kv_quant_group_size": 32,
              "block_size": 16, "num_gpu_blocks": 12000},
    "parallel": {"tensor_parallel_size": 1},
    "lmcache": {"chunk_size": 256, "local_device": "cpu"},
}


class LLMEngine:
    def __init__(self, cfg: EngineConfig, staging_device=None):
        self.cfg = cfg
        self.cache_engine = CacheEngine(cfg.cache, cfg.model, cfg.parallel,
                                        cfg.device)
        self.kv_connector = None
        if cfg.lmcache.local_device or cfg.lmcache.remote_url:
            self.kv_connector = LMCacheConnector(cfg, self.cache_engine,
                                                 staging_device=staging_device)

    @classmethod
    def from_engine_args(cls, engine_args=None, **kw) -> "LLMEngine":
        return cls(EngineConfig.model_validate(engine_args or DEFAULT_ENGINE_ARGS), **kw)
