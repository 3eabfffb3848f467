from dataclasses import dataclass


@dataclass(frozen=True)
class CacheConfig:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    block_size: int = 16
    num_gpu_blocks: int = 2048
    num_cpu_blocks: int = 8192
    dtype: str = "bfloat16"
    fp8_kv_cache: bool = True
    fp8_dtype: str = "float8_e4m3fn"
    device: str = "cuda"
    cpu_device: str = "cpu"
