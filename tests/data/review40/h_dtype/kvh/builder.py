from kvh.config import CacheConfig
from kvh.decode_pool import DecodeKVPool
from kvh.dtypes import kv_dtype
from kvh.prefill_pool import PrefillKVPool


def build_disagg(cfg: CacheConfig, size, head_num, head_dim, layer_num):
    dtype = kv_dtype(cfg)
    prefill = PrefillKVPool(size, cfg.page_size, dtype, head_num, head_dim, layer_num, "cuda")
    decode = DecodeKVPool(size, cfg.page_size, dtype, head_num, int(head_dim), layer_num, "cuda")
    return prefill, decode
