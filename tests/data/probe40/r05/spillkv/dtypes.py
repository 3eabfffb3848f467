import enum

import torch


class KVDtype(str, enum.Enum):
    AUTO = "auto"
    BF16 = "bf16"
    FP16 = "fp16"
    FP8_E4M3 = "fp8_e4m3"
    FP8_E5M2 = "fp8_e5m2"


_TORCH = {
    KVDtype.BF16: torch.bfloat16,
    KVDtype.FP16: torch.float16,
    KVDtype.FP8_E4M3: torch.float8_e4m3fn,
    KVDtype.FP8_E5M2: torch.float8_e5m2,
}

MODEL_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16}


def resolve_kv_dtype(kv_cache_dtype: str, model_dtype: torch.dtype) -> torch.dtype:
    kind = KVDtype(kv_cache_dtype)
    if kind is KVDtype.AUTO:
        return model_dtype
    return _TORCH[kind]
