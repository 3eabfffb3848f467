"""Engine configuration objects."""
import enum
from dataclasses import dataclass, field

import torch


class QuantPolicy(enum.IntEnum):
    """KV cache quantisation policy (mirrors TurboMind's ``quant_policy``)."""

    NONE = 0
    INT4 = 4
    INT8 = 8

    @property
    def storage_dtype(self):
        return _POLICY_STORAGE.get(self)

    @property
    def pack_factor(self):
        return 2 if self is QuantPolicy.INT4 else 1


_POLICY_STORAGE = {
    QuantPolicy.INT4: torch.uint8,
    QuantPolicy.INT8: torch.uint8,
}

_DTYPE_NAMES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}


@dataclass
class ModelConfig:
    num_layers: int = 28
    num_key_value_heads: int = 4
    head_dim: int = 128
    dtype_name: str = "float16"

    @property
    def dtype(self):
        return _DTYPE_NAMES[self.dtype_name]


@dataclass
class CacheConfig:
    block_size: int = 64
    num_gpu_blocks: int = 64
    num_cpu_blocks: int = 32
    quant_policy: QuantPolicy = QuantPolicy.INT8
    extra: dict = field(default_factory=dict)

    @property
    def quantized(self):
        return self.quant_policy is not QuantPolicy.NONE

    def kv_storage_dtype(self, model_cfg):
        return self.quant_policy.storage_dtype or model_cfg.dtype
