import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.float16,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float": torch.float32,
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}

GiB_bytes = 1 << 30


def get_dtype_size(dtype):
    return torch.tensor([], dtype=dtype, device="meta").element_size()


def kv_cache_torch_dtype(cache_dtype, model_dtype):
    if cache_dtype == "auto":
        return STR_DTYPE_TO_TORCH_DTYPE[model_dtype]
    return STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]


def divide(a, b):
    assert a % b == 0, f"{a} is not divisible by {b}"
    return a // b
