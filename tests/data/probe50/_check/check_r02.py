import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from kestrel_pd.handshake import open_kv_channel
from kestrel_pd.settings import DisaggSettings

s = DisaggSettings(prefill_tokens=200_000, decode_tokens=600_000)
dev, dec = open_kv_channel(s, prefill_device="meta", decode_device="meta")
assert len(dev.nope_cache) == len(dec.nope) == 61
measured = {}
for a, o in (("nope_cache", "nope"), ("tile_scales", "scales"), ("rope_cache", "rope")):
    d, x = getattr(dev, a)[0], getattr(dec, o)[0]
    measured[a] = (per_token(x, x.shape[0]), per_token(d, d.shape[0]))
verify("r02", dev, dec, open_kv_channel, measured)
