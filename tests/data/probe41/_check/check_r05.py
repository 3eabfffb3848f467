"""r05: build both pools on meta with the default config and compare bytes per token."""
from common import add_tree, per_token, verify

add_tree("r05")
from heron.config import HeronConfig
from heron.disagg import make_kv_endpoints

cache, recv = make_kv_endpoints(HeronConfig(device="meta", recv_device="meta"))
measured = {
    attr: (per_token(getattr(recv, attr), recv.num_tokens), per_token(getattr(cache, attr), cache.num_slots))
    for attr in ("kv_data", "kv_scale")
}
verify("r05", cache, recv, make_kv_endpoints, measured)
