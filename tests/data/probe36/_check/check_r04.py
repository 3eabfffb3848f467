from common import setup, bpt, compare

setup("r04")
from cellcache.factory import build_offload_pair

dev, off = build_offload_pair(device="meta")
compare("r04", {
    name: (
        bpt([(getattr(off, name), off.n_cells, off.n_layer)]),
        bpt([(getattr(dev, name), dev.n_cells, dev.n_layer)]),
    )
    for name in ("k", "v", "k_scale", "v_scale")
})
