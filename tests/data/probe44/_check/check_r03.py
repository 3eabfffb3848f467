import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from mossgate.spec import LatentSpec
from mossgate.server import build_cache_tiers

dev, swap = build_cache_tiers(LatentSpec(device="meta"), swap_device="meta")
g = dev.ckv.shape[1]
h = swap.latent_rows.shape[1]
# the swap buffers are views of one packed storage: measure each view's own elements
measured = {
    "ckv": (per_token(swap.latent_rows, h), per_token(dev.ckv, g)),
    "kpe": (per_token(swap.rope_rows, h), per_token(dev.kpe, g)),
}
assert per_token(swap._packed, h) == sum(o for o, _ in measured.values())
verify("r03", dev, swap, build_cache_tiers, measured)
