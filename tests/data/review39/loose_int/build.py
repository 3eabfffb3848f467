import torch

from pools import DecodeKVPool, PrefillKVPool


def decode_dtype(dtype):
    return torch.bfloat16 if dtype is None else dtype


def build_disagg_pools(size, layer_num, kv_heads, head_dim, dtype):
    prefill = PrefillKVPool(size, layer_num, kv_heads, head_dim, dtype)
    decode = DecodeKVPool(size, layer_num, kv_heads, head_dim, decode_dtype(dtype))
    return prefill, decode
