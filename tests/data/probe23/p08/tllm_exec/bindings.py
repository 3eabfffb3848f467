"""Python stand-ins for the C++ binding enums and configs."""
import enum
from dataclasses import dataclass
from typing import Optional

import torch


class DataType(enum.Enum):
    FLOAT = "float32"
    HALF = "float16"
    BF16 = "bfloat16"
    FP8 = "fp8"

    @property
    def torch_dtype(self) -> torch.dtype:
        return {"float32": torch.float32, "float16": torch.float16,
                "bfloat16": torch.bfloat16, "fp8": torch.float8_e4m3fn}[self.value]

    @property
    def itemsize(self) -> int:
        return self.torch_dtype.itemsize


class CacheType(enum.Enum):
    SELF = 0
    CROSS = 1


@dataclass
class KvCacheConfig:
    max_tokens: Optional[int] = 262144
    free_gpu_memory_fraction: float = 0.9
    tokens_per_block: int = 32
    host_cache_size: Optional[int] = 32 << 30   # bytes for the secondary pool
    enable_block_reuse: bool = True


@dataclass
class ExecutorConfig:
    max_batch_size: int = 256
    max_num_tokens: int = 8192
    kv_cache_config: KvCacheConfig = None
    device: str = "cuda"
    host_device: str = "cpu"
