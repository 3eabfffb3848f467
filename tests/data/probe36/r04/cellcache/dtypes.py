import enum

import torch


class CacheDType(enum.Enum):
    BF16 = "bf16"
    FP16 = "fp16"
    FP8_E4M3 = "fp8_e4m3"

    @property
    def torch_dtype(self) -> torch.dtype:
        return {
            CacheDType.BF16: torch.bfloat16,
            CacheDType.FP16: torch.float16,
            CacheDType.FP8_E4M3: torch.float8_e4m3fn,
        }[self]

    @property
    def is_quantized(self) -> bool:
        return self is CacheDType.FP8_E4M3


SCALE_DTYPE = torch.float32
