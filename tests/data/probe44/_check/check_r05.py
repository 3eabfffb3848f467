import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from brackenlm.dims import AttnDims
from brackenlm.disagg import build_disagg_pair

pre, dec = build_disagg_pair(AttnDims(device="meta"))
g = pre.k_bufs[0].shape[0]
h = dec.k_store[0].shape[0]
measured = {
    "k_bufs": (per_token(dec.k_store, h), per_token(pre.k_bufs, g)),
    "v_bufs": (per_token(dec.v_store, h), per_token(pre.v_bufs, g)),
}
verify("r05", pre, dec, build_disagg_pair, measured)
