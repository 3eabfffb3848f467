import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from lanternserve.config import ServeConfig
from lanternserve.engine import build_kv_stores

cfg = ServeConfig(device="meta", host_device="meta")
gpu, host = build_kv_stores(cfg)
gslots = gpu.key_cache[0].shape[0]
hslots = host.k_host.shape[1]
measured = {
    "key_cache": (per_token(host.k_host, hslots), per_token(gpu.key_cache, gslots)),
    "value_cache": (per_token(host.v_host, hslots), per_token(gpu.value_cache, gslots)),
}
verify("r01", gpu, host, build_kv_stores, measured)
