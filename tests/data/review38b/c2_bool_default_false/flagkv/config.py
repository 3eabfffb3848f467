from dataclasses import dataclass


@dataclass
class CacheConfig:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    max_gpu_tokens: int = 2048
    max_cpu_tokens: int = 8192
    fp8_kv_cache: bool = False  # --kv-cache-dtype fp8 turns it on
