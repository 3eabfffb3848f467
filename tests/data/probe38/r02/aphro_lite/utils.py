import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.half,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float,
    "float32": torch.float32,
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


def get_kv_cache_torch_dtype(cache_dtype: str, model_dtype: str) -> torch.dtype:
    if cache_dtype == "auto":
        return STR_DTYPE_TO_TORCH_DTYPE[model_dtype]
    return STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]


def get_dtype_size(dtype: torch.dtype) -> int:
    return torch.tensor([], dtype=dtype).element_size()
