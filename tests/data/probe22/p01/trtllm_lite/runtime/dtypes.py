import torch

_str_to_torch_dtype_dict = dict(
    bfloat16=torch.bfloat16,
    float16=torch.float16,
    float32=torch.float32,
    int8=torch.int8,
    fp8=torch.float8_e4m3fn,
)


def str_dtype_to_torch(dtype: str) -> torch.dtype:
    ret = _str_to_torch_dtype_dict.get(dtype)
    assert ret is not None, f"Unsupported dtype: {dtype}"
    return ret


def dtype_size(dtype: torch.dtype) -> int:
    return torch.empty((), dtype=dtype, device="meta").element_size()
