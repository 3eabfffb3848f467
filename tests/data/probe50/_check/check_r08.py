import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from sandpiper.server import setup_kv

argv = ["--kv-dtype", "fp8_e5m2", "--tp", "2", "--max-tokens", "300000", "--host-gib", "32"]
dev, host = setup_kv(argv, device="meta", host_device="meta")
assert len(dev.kv_buffer) == host.store.shape[0] == 48
assert len({b.shape[0] for b in dev.kv_buffer}) == 2
per_layer = {per_token(b, b.shape[0]) for b in dev.kv_buffer}
assert len(per_layer) == 1, per_layer
h = host.store
measured = {"kv_buffer": (per_token(h, h.shape[0] * h.shape[1]), per_layer.pop())}
verify("r08", dev, host, setup_kv, measured)
