import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.float16,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float32,
    "float32": torch.float32,
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


def resolve_cache_dtype(cache_dtype: str, model_dtype: str) -> torch.dtype:
    if cache_dtype == "auto":
        return STR_DTYPE_TO_TORCH_DTYPE[model_dtype]
    return STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]


def dtype_size(dtype: torch.dtype) -> int:
    return torch.tensor([], dtype=dtype).element_size()
