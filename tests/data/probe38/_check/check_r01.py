import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from tokenflow.worker_init import build_kv_memory

dev, host = build_kv_memory(device="meta", host_device="meta")
measured = {
    "kv_buffer": (per_token(host.kv_host, host.kv_host.shape[0]),
                  per_token(dev.kv_buffer, dev.kv_buffer[0].shape[0])),
}
verify("r01", dev, host, build_kv_memory, measured)
