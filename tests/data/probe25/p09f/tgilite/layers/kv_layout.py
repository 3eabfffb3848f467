"""FlashInfer NHD paged layout helpers."""
import torch

_DTYPES = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "fp8_e4m3fn": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


def resolve_dtype(name: str) -> torch.dtype:
    return _DTYPES[name]


def is_fp8(dtype: torch.dtype) -> bool:
    return dtype in (torch.float8_e4m3fn, torch.float8_e5m2)


def nhd_page_shape(num_pages: int, page_size: int, kv_heads: int, head_size: int):
    # [pages, 2 (K/V), page_size, kv_heads, head_size]
    return (num_pages, 2, page_size, kv_heads, head_size)


def scale_page_shape(num_pages: int, page_size: int, kv_heads: int):
    return (num_pages, 2, page_size, kv_heads)
