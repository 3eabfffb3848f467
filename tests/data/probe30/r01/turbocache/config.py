"""Engine configuration objects."""
import enum
from dataclasses import dataclass, field

import torch


class CacheDType(enum.Enum):
    BF16 = "bf16"
    FP16 = "fp16"
    FP32 = "fp32"


_TORCH_DTYPES = {
    CacheDType.BF16: torch.bfloat16,
    CacheDType.FP16: torch.float16,
    CacheDType.FP32: torch.float32,
}


def torch_dtype_of(cache_dtype: CacheDType) -> torch.dtype:
    return _TORCH_DTYPES[cache_dtype]


@dataclass
class ModelConfig:
    """Attention geometry of the served model (whole model, unsharded)."""

    num_layers: int = 16
    num_attention_heads: int = 32
    num_key_value_heads: int = 8
    head_dim: int = 128

    @property
    def is_gqa(self) -> bool:
        return self.num_key_value_heads < self.num_attention_heads


@dataclass
class ParallelConfig:
    tp: int = 2
    rank: int = 0


@dataclass
class CacheConfig:
    block_size: int = 64
    num_gpu_blocks: int = 256
    num_cpu_blocks: int = 128
    cache_dtype: CacheDType = CacheDType.BF16
    enable_prefix_caching: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def torch_dtype(self) -> torch.dtype:
        return torch_dtype_of(self.cache_dtype)
