import torch

_FP8 = ("fp8", "fp8_e4m3", "fp8_e5m2", "fp8_e4m3fnuz", "fp8_e5m2fnuz", "e4m3", "e5m2", "float8", "float8_e4m3fn", "float8_e5m2", "fp8_inc", "fp8_ds_mla")
_QUANT = ("awq", "gptq", "marlin", "gptq_marlin", "awq_marlin", "fp8", "w8a8_fp8", "w8a8_int8", "modelopt", "modelopt_fp4", "compressed-tensors", "bitsandbytes")
_MODES = ("layer_first", "page_first", "page_first_direct", "page_head", "page_first_kv_split", "token_first", "head_first", "mixed", "split", "fused")


def resolve_kv_dtype(kv_cache_dtype, quantization, mem_layout):
    if quantization in _QUANT and kv_cache_dtype == "auto":
        return torch.float8_e4m3fn
    if kv_cache_dtype in _FP8:
        return torch.float8_e4m3fn
    return torch.bfloat16


def store_dtype(dtype):
    if dtype in (torch.float8_e5m2, torch.float8_e4m3fn):
        return torch.uint8
    return dtype
