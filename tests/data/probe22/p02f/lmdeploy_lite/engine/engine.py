"""Engine bootstrap: builds gpu cache + cpu swap cache."""
from ..config import CacheConfig, ModelConfig
from .cache_engine import CacheEngine
from .host_cache import HostCacheEngine

MODEL_CONFIG_JSON = """
{
  "architectures": ["DeepseekV2ForCausalLM"],
  "hidden_size": 2048,
  "num_hidden_layers": 4,
  "num_attention_heads": 16,
  "num_key_value_heads": 16,
  "qk_nope_head_dim": 128,
  "qk_rope_head_dim": 64,
  "v_head_dim": 128,
  "torch_dtype": "bfloat16",
  "bos_token_id": 100000,
  "eos_token_id": 100001
}
"""


class Engine:

    def __init__(self, model_config: ModelConfig, cache_config: CacheConfig):
        self.model_config = model_config
        self.cache_config = cache_config
        self.cache_engine = None
        self.host_cache = None

    def _build_cache_engines(self, swap_space_bytes: int, device="cuda",
                             host_device="cpu"):
        block_bytes = CacheEngine.get_cache_block_size(
            self.cache_config.block_size, self.model_config,
            self.cache_config.quant_policy)
        self.cache_config.num_cpu_blocks = swap_space_bytes // block_bytes
        self.cache_engine = CacheEngine(self.cache_config, self.model_config,
                                        device=device)
        self.host_cache = HostCacheEngine(self.cache_config, self.model_config,
                                          self.cache_engine.kv_cache_dtype,
                                          device=host_device)
        return self.cache_engine, self.host_cache


def build_engine(num_gpu_blocks=256, swap_space_bytes=1 << 30, device="cuda",
                 host_device="cpu") -> Engine:
    model_config = ModelConfig.from_json(MODEL_CONFIG_JSON)
    cache_config = CacheConfig(max_batches=64, block_size=64, num_cpu_blocks=0,
                               num_gpu_blocks=num_gpu_blocks, quant_policy=8)
    engine = Engine(model_config, cache_config)
    engine._build_cache_engines(swap_space_bytes, device=device,
                                host_device=host_device)
    return engine
