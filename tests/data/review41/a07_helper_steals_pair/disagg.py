from kv_format import KVCacheFormat
from pools import PrefillKVPool, DecodeKVPool


def init_pd_pools(size, head_num, head_dim, layer_num, fmt: KVCacheFormat):
    prefill = PrefillKVPool(size, head_num, head_dim, layer_num, fmt, device="cuda:0")
    decode = DecodeKVPool(size, head_num, head_dim, layer_num, fmt, device="cuda:1")
    return prefill, decode
