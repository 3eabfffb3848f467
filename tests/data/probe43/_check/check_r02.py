import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from quillserve.builder import assemble_kv

dev, host = assemble_kv({"accel_device": "meta", "host_device": "meta"})
measured = {
    name: (per_token(host[name], host.capacity), per_token(getattr(dev, name), dev.capacity))
    for name in ("k_data", "v_data", "k_scale", "v_scale")
}
assert dev.capacity == 8192 and host.capacity == 16384
verify("r02", dev, host, assemble_kv, measured)
