import torch

FP8_DTYPES = (torch.float8_e4m3fn, torch.float8_e5m2)


def get_store_dtype(dtype: torch.dtype) -> torch.dtype:
    # index_put is not implemented for fp8 on all backends; keep raw bytes.
    return torch.uint8 if dtype in FP8_DTYPES else dtype


def get_mla_cache_dim(kv_lora_rank: int, qk_rope_head_dim: int = 0) -> int:
    return kv_lora_rank + qk_rope_head_dim


def align_to_page(n: int, page_size: int) -> int:
    return n - (n % page_size)
