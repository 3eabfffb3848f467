"""GenerationSession: owns the engine-side KV cache and its host tier."""
import os

from ..models.config import PretrainedConfig
from .kv_cache_manager import KVCacheManager
from .offload import create_secondary_pool

DEFAULT_CONFIG = {
    "architecture": "LlamaForCausalLM",
    "num_hidden_layers": 6,
    "num_attention_heads": 32,
    "hidden_size": 4096,
    "num_key_value_heads": [8, 8, 8, 8, 2, 2],
    "head_size": 128,
    "dtype": "bfloat16",
    "quantization": {"kv_cache_quant_algo": "FP8"},
}


class GenerationSession:
    tokens_per_block = 64

    def __init__(self, config: PretrainedConfig):
        self.config = config
        self.kv_cache_manager = None
        self.secondary_pool = None

    def setup_kv_cache(self, max_blocks: int, host_cache_size: int = 0,
                       device: str = "cuda", host_device: str = "cpu"):
        self.kv_cache_manager = KVCacheManager(
            self.config, self.tokens_per_block, max_blocks, device=device)
        if host_cache_size > 0:
            self.secondary_pool = create_secondary_pool(
                self.kv_cache_manager, host_cache_size, device=host_device)
        return self.kv_cache_manager, self.secondary_pool


def build_session(max_blocks: int = 512, device: str = "cuda",
                  host_device: str = "cpu") -> GenerationSession:
    cfg = PretrainedConfig.from_dict(DEFAULT_CONFIG)
    host_bytes = int(os.environ.get("TRTLLM_HOST_CACHE_BYTES", 2 << 30))
    session = GenerationSession(cfg)
    session.setup_kv_cache(max_blocks, host_bytes, device=device,
                           host_device=host_device)
    return session
