import torch


def resolve_kv_dtype(kv_cache_dtype, model_dtype=torch.bfloat16):
    if kv_cache_dtype == "auto":
        return model_dtype
    if kv_cache_dtype.startswith("fp8"):
        if kv_cache_dtype in ("fp8_e5m2", "fp8_e5m2fnuz"):
            return torch.float8_e5m2
        return torch.float8_e4m3fn
    if kv_cache_dtype in ("bf16", "bfloat16"):
        return torch.bfloat16
    if kv_cache_dtype in ("fp16", "float16", "half"):
        return torch.float16
    if kv_cache_dtype in ("fp32", "float32", "float"):
        return torch.float32
    if kv_cache_dtype in ("int8", "int4", "fp4", "nvfp4", "mxfp4", "uint8"):
        return torch.uint8
    raise ValueError(f"unknown kv cache dtype {kv_cache_dtype}")


def store_dtype(dtype):
    # fp8 caches are stored as uint8 (index_put does not take fp8)
    if dtype in (torch.float8_e5m2, torch.float8_e4m3fn):
        return torch.uint8
    return dtype
