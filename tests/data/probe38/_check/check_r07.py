import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from rayserve_disagg.deployment import build_disagg_pools

pool, buf = build_disagg_pools(device="meta", transfer_device="meta")
dslots = pool.k_cache.shape[1]
tslots = buf.k_bufs[0].shape[0]
measured = {
    "k_cache": (per_token(buf.k_bufs, tslots), per_token(pool.k_cache, dslots)),
    "v_cache": (per_token(buf.v_bufs, tslots), per_token(pool.v_cache, dslots)),
}
verify("r07", pool, buf, build_disagg_pools, measured)
