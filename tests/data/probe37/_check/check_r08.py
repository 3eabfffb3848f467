import itertools
from common import setup, bpt, compare

setup("r08")
from hydra_serve import build_cache_pair
from hydra_serve.precision import KVPrecision


def measure(arena, mirror):
    assert set(arena.tensors) == {n for n in ("k", "v", "k_scale", "v_scale") if getattr(mirror, n) is not None}
    out = {}
    for name, t in arena.tensors.items():
        h = getattr(mirror, name)
        assert len(h) == mirror.n_layers
        out[name] = (bpt([(h, mirror.slot_count, mirror.n_layers)]), bpt([(t, arena.slots, arena.n_layers)]))
    return out


arena, mirror = build_cache_pair(device="meta")
measured = measure(arena, mirror)

n = 0
for p, tp, kvh, hd, (hidden, qh) in itertools.product(
        KVPrecision, (1, 2, 4, 8), (1, 2, 8, 16), (None, 64, 96, 128, 192), [(6144, 48), (4096, 32), (5120, 40)]):
    try:
        a, m = build_cache_pair(device="meta", precision=p, tp=tp, kv_heads=kvh, head_dim=hd,
                                hidden=hidden, q_heads=qh, n_layers=2, slots=7, mirror_slots=5)
    except ValueError:
        continue
    for name, (o, d) in measure(a, m).items():
        assert o == d, (p, tp, kvh, hd, name, o, d)
    n += 1
assert n > 100
compare("r08", measured)
