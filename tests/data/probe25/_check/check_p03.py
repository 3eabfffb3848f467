import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _util import run, bptl


def build(create_kv_pools):
    dev, host = create_kv_pools(device="meta", host_device="meta")
    out = {}
    for name in ("kv_pool", "kv_scale_pool"):
        out[name] = (
            bptl(getattr(host, name), host.num_blocks * host.tokens_per_block, host.num_layers),
            bptl(getattr(dev, name), dev.num_blocks * dev.tokens_per_block, dev.num_layers),
        )
    return dev, host, out


run("p03", build)
