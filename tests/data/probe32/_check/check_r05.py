from common import setup, bpt, compare

setup("r05")
from servekit.server import build_caches

dev, host = build_caches(device="meta", host_device="meta")
measured = {}
for name in ("k_cache", "v_cache", "k_scale", "v_scale"):
    measured[name] = (
        bpt([(getattr(host, name), host.num_host_tokens, host.num_layers)]),
        bpt([(getattr(dev, name), dev.capacity, dev.num_layers)]),
    )
compare("r05", measured)
