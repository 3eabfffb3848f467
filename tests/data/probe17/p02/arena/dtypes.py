import torch


def resolve_kv_dtype(name: str, model_dtype=torch.bfloat16):
    if name == "auto":
        return model_dtype
    elif name in ("fp8", "fp8_e4m3"):
        return torch.float8_e4m3fn
    elif name == "fp8_e5m2":
        return torch.float8_e5m2
    elif name == "fp16":
        return torch.float16
    raise ValueError(f"unknown kv dtype {name!r}")
