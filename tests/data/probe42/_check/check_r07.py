import dataclasses

from common import add_tree, per_token, verify

add_tree("r07")
from shardcache.options import CacheOptions  # noqa: E402
from shardcache.worker import bring_up  # noqa: E402


def measure(**kw):
    opts = dataclasses.replace(CacheOptions(), device="meta", host_device="meta", **kw)
    dev, host = bring_up(opts)
    dslots = dev.k_buffer[0].shape[0]
    hslots = host.num_pages * host.page_size
    assert dslots == opts.max_tokens and hslots == opts.host_tokens
    m = {a: (per_token(getattr(host, a), hslots), per_token(getattr(dev, a), dslots))
         for a in ("k_buffer", "v_buffer")}
    return dev, host, m


dev, host, measured = measure()
# supported variants must agree as well
for kw in ({"shelf_layout": "layer_first"}, {"kv_cache_dtype": "fp8_e5m2"},
           {"kv_cache_dtype": "fp8_e4m3"}, {"tp_size": 16}, {"tp_size": 1}):
    _, _, m = measure(**kw)
    assert all(o == d for o, d in m.values()), (kw, m)
verify("r07", dev, host, bring_up, measured)
