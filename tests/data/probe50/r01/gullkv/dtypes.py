import torch

_NAME_TO_DTYPE = {
    "bfloat16": torch.bfloat16,
    "bf16": torch.bfloat16,
    "float16": torch.float16,
    "fp16": torch.float16,
    "half": torch.float16,
    "float32": torch.float32,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}

# scales are kept per (token, kv head) in fp32
SCALE_DTYPE = torch.float32
SCALE_NBYTES = 4


def resolve_kv_dtype(kv_cache_dtype, model_dtype):
    if kv_cache_dtype in (None, "auto"):
        return _NAME_TO_DTYPE[model_dtype]
    try:
        return _NAME_TO_DTYPE[kv_cache_dtype]
    except KeyError:
        raise ValueError(f"unsupported kv cache dtype {kv_cache_dtype!r}") from None


def is_scaled(kv_cache_dtype):
    return kv_cache_dtype is not None and kv_cache_dtype.startswith("fp8")
