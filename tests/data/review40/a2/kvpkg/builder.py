from kvpkg.memory_pool import MHATokenToKVPool
from kvpkg.memory_pool_host import MHATokenToKVPoolHost
from kvpkg.spec import KVSpec


def build(model_config, size, host_size):
    spec = KVSpec(model_config.num_key_value_heads, model_config.head_dim, model_config.num_hidden_layers)
    pool = MHATokenToKVPool(size, 1, spec, "cuda")
    host = MHATokenToKVPoolHost(pool, size=size * 2, page_size=1, layer_num=pool.layer_num)
    return pool, host
