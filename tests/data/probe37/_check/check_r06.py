import itertools
from common import setup, bpt, compare

setup("r06")
from tgi_server.flash_causal_lm import FlashConfig, KV_CACHE_DTYPES, SUPPORTED_DTYPES, build_cache_pair


def measure(model, stage):
    out = {}
    for name in ("key_cache", "value_cache"):
        dev = [(getattr(c, name), c.num_slots, 1) for c in model.kv_cache]
        assert len(dev) == model.num_layers
        out[name] = (bpt([(getattr(stage, name), stage.num_slots, stage.num_layers)]), bpt(dev))
    return out


model, stage = build_cache_pair(device="meta")
measured = measure(model, stage)

n = 0
for dt, kvd, ws, (kvh, hd) in itertools.product(
        SUPPORTED_DTYPES, (None,) + tuple(KV_CACHE_DTYPES), (1, 2, 3, 4, 8, 16),
        [(8, None), (1, 64), (2, 80), (4, 96), (6, 112), (8, 256)]):
    try:
        cfg = FlashConfig(num_key_value_heads=kvh, head_dim=hd, num_hidden_layers=2)
        m, s = build_cache_pair(device="meta", dtype=dt, kv_cache_dtype=kvd, world_size=ws,
                                num_blocks=3, staging_slots=5, config=cfg)
    except ValueError:
        continue
    for name, (o, d) in measure(m, s).items():
        assert o == d, (dt, kvd, ws, kvh, hd, name, o, d)
    n += 1
assert n > 100

compare("r06", measured)
