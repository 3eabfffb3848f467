from common import setup, bpt, compare

setup("r02")
from tm_engine.engine import build_cache

dev, host = build_cache(device="meta", host_device="meta")
td, th = dev.num_blocks * dev.block_size, host.num_blocks * host.block_size
measured = {}
for name in ("key_cache", "value_cache", "scales_zeros"):
    measured[name] = (
        bpt([(getattr(host, name), th, host.num_layers)]),
        bpt([(getattr(dev, name), td, dev.num_layers)]),
    )
compare("r02", measured)
