from kvf.decode_pool import DecodeKVPool
from kvf.dtypes import resolve_kv_dtype
from kvf.prefill_pool import PrefillKVPool


def build_disagg(size, page_size, head_num, head_dim, layer_num, kv_cache_dtype, quantization, mem_layout):
    dtype = resolve_kv_dtype(kv_cache_dtype, quantization, mem_layout)
    prefill = PrefillKVPool(size, page_size, dtype, head_num, head_dim, layer_num, "cuda")
    decode = DecodeKVPool(size, page_size, dtype, head_num, int(head_dim), layer_num, "cuda")
    return prefill, decode
