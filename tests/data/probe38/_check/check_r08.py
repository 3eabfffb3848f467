import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from maxshim.session import load_kv_manager

pool, stg = load_kv_manager(device="meta", host_device="meta")
dslots = pool.blocks.shape[0] * pool.blocks.shape[3]   # pages * page_size
sslots = stg.kv_payload.shape[0]
measured = {
    "blocks": (per_token(stg.kv_payload, sslots), per_token(pool.blocks, dslots)),
    "scales": (per_token(stg.kv_scales, sslots), per_token(pool.scales, dslots)),
}
verify("r08", pool, stg, load_kv_manager, measured)
