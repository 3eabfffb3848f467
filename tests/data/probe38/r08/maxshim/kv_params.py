from dataclasses import dataclass

from .dtype import DType


@dataclass
class KVCacheParams:
    dtype: DType = DType.float8_e4m3fn
    scale_dtype: DType = DType.float32
    n_kv_heads: int = 8
    head_dim: int = 128
    num_layers: int = 32
    page_size: int = 128
    n_devices: int = 2
    cache_strategy: str = "paged"
    device_memory_bytes: int = 24 << 30
    host_staging_tokens: int = 32768

    @property
    def n_kv_heads_per_device(self) -> int:
        return self.n_kv_heads // self.n_devices
