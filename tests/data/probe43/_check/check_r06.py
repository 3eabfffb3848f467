import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from marrowlm.bootstrap import build_quant_caches

dev, host = build_quant_caches(device="meta", host_device="meta")
D, H = 2048, 8192
measured = {
    "k_q": (per_token(host.k_payload, H), per_token(dev.k_q, D)),
    "v_q": (per_token(host.v_payload, H), per_token(dev.v_q, D)),
    "k_scale": (per_token(host.k_scales, H), per_token(dev.k_scale, D)),
    "v_scale": (per_token(host.v_scales, H), per_token(dev.v_scale, D)),
}
verify("r06", dev, host, build_quant_caches, measured)
