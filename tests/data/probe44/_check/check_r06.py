import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from fernrelay.model_cfg import HybridAttnConfig
from fernrelay.launch import create_kv_tiers

gpu, host = create_kv_tiers(HybridAttnConfig(device="meta", host_device="meta"))
g = gpu.k_cache[0].shape[0]
h = host.keys[0].shape[0]
measured = {
    "k_cache": (per_token(host.keys, h), per_token(gpu.k_cache, g)),
    "v_cache": (per_token(host.values, h), per_token(gpu.v_cache, g)),
}
assert host.bytes_per_token() == sum(o for o, _ in measured.values())
verify("r06", gpu, host, create_kv_tiers, measured)
