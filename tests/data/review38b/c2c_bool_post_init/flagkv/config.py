from dataclasses import dataclass


@dataclass
class CacheConfig:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    max_gpu_tokens: int = 2048
    max_cpu_tokens: int = 8192
    kv_cache_dtype: str = "fp8_e4m3"
    # derived in __post_init__ from kv_cache_dtype (the value given here is overwritten)
    fp8_kv_cache: bool = False

    def __post_init__(self):
        self.fp8_kv_cache = self.kv_cache_dtype.startswith("fp8")
