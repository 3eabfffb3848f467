import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p03f"))
from _util import bptl, verify  # noqa: E402
from mla_hicache.hicache import build_hierarchical_cache  # noqa: E402

pool, host = build_hierarchical_cache(device="meta", host_device="meta")
L = pool.num_layers
figures = ({
    "latent": (bptl(host.latent, host.capacity, L), bptl(pool.latent, pool.rows, L)),
    "rope": (bptl(host.rope, host.capacity, L), bptl(pool.rope, pool.rows, L)),
})

assert all(a == b for a, b in figures.values()), figures
print("OK p03f")
