from ..common.config import CacheConfig, ModelConfig, ParallelConfig
from .cache_engine import CacheEngine

HF_CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "hidden_size": 5120,
    "num_attention_heads": 40,
    "num_key_value_heads": 8,
    "num_hidden_layers": 16,
    "head_dim": 128,
    "torch_dtype": "bfloat16",
}


class Worker:

    def __init__(self, model_config: ModelConfig, parallel_config: ParallelConfig,
                 cache_config: CacheConfig, device: str = "cuda", swap_device: str = "cpu"):
        self.model_config = model_config
        self.parallel_config = parallel_config
        self.cache_config = cache_config
        self.device = device
        self.swap_device = swap_device
        self.cache_engine = None

    def initialize_cache(self, num_gpu_blocks: int) -> CacheEngine:
        block_bytes = CacheEngine.get_cache_block_size(
            self.cache_config, self.model_config, self.parallel_config)
        self.cache_config.num_gpu_blocks = num_gpu_blocks
        self.cache_config.num_cpu_blocks = self.cache_config.swap_space_bytes // block_bytes
        self.cache_engine = CacheEngine(self.cache_config, self.model_config,
                                        self.parallel_config, device=self.device,
                                        swap_device=self.swap_device)
        return self.cache_engine


def create_worker(engine_args: dict, device: str = "cuda", swap_device: str = "cpu") -> Worker:
    model_config = ModelConfig.model_validate({"model": engine_args["model"],
                                               "hf_config": HF_CONFIG,
                                               "dtype": engine_args.get("dtype", "bfloat16")})
    parallel_config = ParallelConfig.model_validate({
        "tensor_parallel_size": engine_args.get("tensor_parallel_size", 1),
        "pipeline_parallel_size": engine_args.get("pipeline_parallel_size", 1)})
    cache_config = CacheConfig.model_validate({
        "block_size": engine_args.get("block_size", 16),
        "swap_space": engine_args.get("swap_space", 4),
        "cache_dtype": engine_args.get("kv_cache_dtype", "auto")})
    return Worker(model_config, parallel_config, cache_config, device, swap_device)
