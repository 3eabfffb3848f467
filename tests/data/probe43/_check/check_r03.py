import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from lanternkv.registry import open_disagg_pair

dev, dec = open_disagg_pair(device="meta")
dslots = 64 * 128
oslots = 64 * 256
measured = {
    "latent_buf": (per_token(dec.compressed, oslots), per_token(dev.latent_buf, dslots)),
    "rope_buf": (per_token(dec.positional, oslots), per_token(dev.rope_buf, dslots)),
}
verify("r03", dev, dec, open_disagg_pair, measured)
