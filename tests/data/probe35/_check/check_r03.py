from common import setup, bpt, compare
setup("r03")
from pd_disagg.engine import build_caches
dev, xfer = build_caches(device="meta")
assert len(dev.k_cache) == dev.n_layers
compare("r03", {
    name: (bpt([(getattr(xfer, name), xfer.num_tokens, xfer.n_layers)]),
           bpt([(t, dev.capacity, 1) for t in getattr(dev, name)]))
    for name in ("k_cache", "v_cache", "k_scale", "v_scale")
})
