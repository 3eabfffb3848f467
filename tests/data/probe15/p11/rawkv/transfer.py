from rawkv.gpu import KVCache
from rawkv.pinned import PinnedKVMirror


def setup(max_tokens, layers, kv_heads, head_dim, dtype, host_tokens):
    pool = KVCache(max_tokens, layers, kv_heads, head_dim, dtype)
    mirror = PinnedKVMirror(pool, host_tokens)
    return pool, mirror
