"""KV storage precisions supported by the attention kernels."""
from enum import Enum

import torch


class KVPrecision(Enum):
    BF16 = "bf16"
    FP16 = "fp16"
    FP8_TOKEN = "fp8_token"    # e4m3 codes + fp32 scale per (token, head)
    INT8_TOKEN = "int8_token"  # int8 codes + fp32 scale per (token, head)

    @property
    def element_dtype(self) -> torch.dtype:
        return _ELEMENT_DTYPES[self]

    @property
    def scaled(self) -> bool:
        return self in (KVPrecision.FP8_TOKEN, KVPrecision.INT8_TOKEN)


_ELEMENT_DTYPES = {
    KVPrecision.BF16: torch.bfloat16,
    KVPrecision.FP16: torch.float16,
    KVPrecision.FP8_TOKEN: torch.float8_e4m3fn,
    KVPrecision.INT8_TOKEN: torch.int8,
}

SCALE_DTYPE = torch.float32
