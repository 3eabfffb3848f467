import itertools
from common import setup, bpt, compare

setup("r01")
from trt_runtime.config import KvCacheConfig, Mapping, ModelConfig, KV_CACHE_DTYPES, MODEL_DTYPES
from trt_runtime.session import create_kv_pools


def measure(dev, host):
    return {"primary_pool": (
        bpt([(host.secondary_pool, host.token_capacity, host.num_layers)]),
        bpt([(dev.primary_pool, dev.max_num_tokens, dev.num_local_layers)]),
    )}


dev, host = create_kv_pools(device="meta")
measured = measure(dev, host)

# CORRECT tree: every accepted configuration must agree
for mdt, kdt, (tp, pp), kvh, tpb in itertools.product(
        MODEL_DTYPES, (None,) + KV_CACHE_DTYPES, [(1, 1), (2, 1), (4, 2), (8, 1), (16, 1), (32, 1)],
        (1, 2, 4, 8), (16, 64)):
    m = ModelConfig(num_layers=8, num_kv_heads=kvh, dtype=mdt)
    mp = Mapping(world_size=tp * pp, tp_size=tp, pp_size=pp)
    kc = KvCacheConfig(tokens_per_block=tpb, max_primary_blocks=4, max_secondary_blocks=3, kv_cache_dtype=kdt)
    try:
        d, h = create_kv_pools(device="meta", model_config=m, mapping=mp, kv_config=kc)
    except ValueError:
        continue
    o, v = measure(d, h)["primary_pool"]
    assert o == v, (mdt, kdt, tp, pp, kvh, o, v)

compare("r01", measured)
