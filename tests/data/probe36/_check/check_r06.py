from common import setup, bpt, compare

setup("r06")
from q4cache.runtime import setup_q4_cache

pair = setup_q4_cache(device="meta")
dev, host = pair.device, pair.host
assert len(host.kv_data) == host.n_layers
compare("r06", {
    name: (
        bpt([(t, host.seq_capacity, 1) for t in getattr(host, name)]),
        bpt([(getattr(dev, name), dev.seq_capacity, dev.n_layers)]),
    )
    for name in ("kv_data", "kv_params")
})
