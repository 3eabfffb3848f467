import enum
from dataclasses import dataclass
from typing import Optional

import torch


class DataType(enum.Enum):
    HALF = "half"
    BF16 = "bf16"
    FLOAT = "float"
    FP8 = "fp8"
    INT8 = "int8"


_BINDING_TO_TORCH = {
    DataType.HALF: torch.float16,
    DataType.BF16: torch.bfloat16,
    DataType.FLOAT: torch.float32,
    DataType.FP8: torch.float8_e4m3fn,
    DataType.INT8: torch.int8,
}


def binding_to_torch_dtype(dt: DataType) -> torch.dtype:
    return _BINDING_TO_TORCH[dt]


@dataclass
class KvCacheConfig:
    tokens_per_block: int = 32
    max_tokens: Optional[int] = None
    free_gpu_memory_fraction: float = 0.85
    host_cache_size: Optional[int] = None
    dtype: str = "auto"
    enable_block_reuse: bool = True


@dataclass
class ModelConfig:
    num_hidden_layers: int = 32
    num_attention_heads: int = 32
    num_key_value_heads: int = 8
    hidden_size: int = 4096
    torch_dtype: str = "bf16"

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_attention_heads


@dataclass
class Mapping:
    tp_size: int = 2
    pp_size: int = 1
    pp_rank: int = 0

    def pp_layers(self, num_layers: int):
        per = num_layers // self.pp_size
        return list(range(self.pp_rank * per, (self.pp_rank + 1) * per))
