import enum

import torch


class KVDType(enum.Enum):
    BF16 = "bf16"
    FP16 = "fp16"
    FP8 = "fp8"


_TORCH_DTYPE = {
    KVDType.BF16: torch.bfloat16,
    KVDType.FP16: torch.float16,
    KVDType.FP8: torch.float8_e4m3fn,
}


def to_torch(kind) -> torch.dtype:
    if isinstance(kind, str):
        kind = KVDType(kind)
    return _TORCH_DTYPE[kind]
