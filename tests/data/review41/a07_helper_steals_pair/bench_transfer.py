import time

from kv_format import KVCacheFormat
from pools import PrefillKVPool, make_decode_pool


def bench_kv_transfer(size, head_num, head_dim, layer_num):
    fmt = KVCacheFormat.BF16
    src = PrefillKVPool(size, head_num, head_dim, layer_num, fmt)
    dst = make_decode_pool(size, head_num, head_dim, layer_num, fmt)
    t0 = time.time()
    for i in range(layer_num):
        dst.kv_buffer[i].copy_(src.kv_buffer[i])
    return time.time() - t0
