import torch

_TORCH = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32, "half": torch.float16, "bf16": torch.bfloat16}


def kv_dtype(cfg):
    model = _TORCH[cfg.model_dtype]
    if cfg.kv_cache_dtype == "auto":
        base = model
    elif cfg.kv_cache_dtype in ("fp8", "fp8_e4m3", "fp8_e4m3fn"):
        base = torch.float8_e4m3fn
    elif cfg.kv_cache_dtype in ("fp8_e5m2", "e5m2"):
        base = torch.float8_e5m2
    else:
        raise ValueError(cfg.kv_cache_dtype)
    if cfg.index_dtype not in ("auto", "fp8", "bf16", "fp16", "fp32"):
        raise ValueError(cfg.index_dtype)
    if cfg.draft_dtype not in ("auto", "fp8", "bf16", "fp16", "fp32", "int8"):
        raise ValueError(cfg.draft_dtype)
    return base


def scale_dtype(cfg):
    return getattr(torch, cfg.scale_dtype)
