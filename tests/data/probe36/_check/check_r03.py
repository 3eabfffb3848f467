from common import setup, bpt, compare

setup("r03")
from nsa_cache.launch import make_disagg_pools

dev, xfer = make_disagg_pools(device="meta")
assert len(dev.kv) == dev.num_layers == xfer.num_layers == len(xfer.kv)
compare("r03", {
    "kv": (
        bpt([(t, xfer.capacity, 1) for t in xfer.kv.values()]),
        bpt([(t, dev.padded_slots, 1) for t in dev.kv]),
    ),
    "index_k": (
        bpt([(t, xfer.capacity, 1) for t in xfer.index_k.values()]),
        bpt([(t, dev.padded_slots, 1) for t in dev.index_k]),
    ),
})
