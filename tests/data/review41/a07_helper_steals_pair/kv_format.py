from enum import Enum

import torch


class KVCacheFormat(str, Enum):
    AUTO = "auto"
    BF16 = "bf16"
    FP16 = "fp16"
    FP8_E4M3 = "fp8_e4m3"
    FP8_E5M2 = "fp8_e5m2"
    FP8_SCALED = "fp8_scaled"
    INT8 = "int8"


STORAGE_DTYPE = {
    KVCacheFormat.AUTO: torch.bfloat16,
    KVCacheFormat.BF16: torch.bfloat16,
    KVCacheFormat.FP16: torch.float16,
    KVCacheFormat.FP8_E4M3: torch.float8_e4m3fn,
    KVCacheFormat.FP8_E5M2: torch.float8_e5m2,
    KVCacheFormat.FP8_SCALED: torch.float8_e4m3fn,
    KVCacheFormat.INT8: torch.int8,
}


def has_scales(fmt: KVCacheFormat) -> bool:
    return fmt in (KVCacheFormat.FP8_SCALED, KVCacheFormat.INT8)
