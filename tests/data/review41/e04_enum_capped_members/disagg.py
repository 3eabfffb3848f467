from kv_format import KVCacheFormat
from pools import PrefillKVPool, DecodeKVPool


def init_pd_pools(cfg, kv_format, size):
    fmt = KVCacheFormat(kv_format)
    heads = cfg.num_key_value_heads // cfg.tp_size
    prefill = PrefillKVPool(size, heads, cfg.head_dim, cfg.num_hidden_layers, fmt)
    decode = DecodeKVPool.for_peer(cfg, fmt, size)
    return prefill, decode
