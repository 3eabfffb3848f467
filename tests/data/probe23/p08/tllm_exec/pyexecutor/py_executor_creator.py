from tllm_exec.bindings import CacheType, ExecutorConfig, KvCacheConfig
from tllm_exec.mapping import Mapping
from tllm_exec.model_config import ModelConfig
from tllm_exec.pyexecutor.host_pool import make_secondary_pool
from tllm_exec.pyexecutor.resource_manager import KVCacheManager


class PyExecutor:
    def __init__(self, kv_cache_manager, secondary_pool, executor_config):
        self.kv_cache_manager = kv_cache_manager
        self.secondary_pool = secondary_pool
        self.max_batch_size = executor_config.max_batch_size


def create_py_executor(executor_config: ExecutorConfig = None,
                       model_config: ModelConfig = None,
                       mapping: Mapping = None) -> PyExecutor:
    executor_config = executor_config or ExecutorConfig()
    kv_cfg = executor_config.kv_cache_config or KvCacheConfig()
    model_config = model_config or ModelConfig.from_pretrained_config()
    mapping = mapping or Mapping(world_size=4, rank=0, tp_size=2, pp_size=2)
    kv_cache_manager = KVCacheManager(kv_cfg, CacheType.SELF, model_config,
                                      mapping, device=executor_config.device)
    secondary = None
    if kv_cfg.host_cache_size:
        secondary = make_secondary_pool(kv_cfg, model_config, mapping,
                                        device=executor_config.host_device)
    return PyExecutor(kv_cache_manager, secondary, executor_config)
