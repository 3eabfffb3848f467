import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from cinderkv.knobs import KVKnobs
from cinderkv.bootstrap import setup_kv

pool, stage = setup_kv(KVKnobs(device="meta", host_device="meta"))
g = pool.k_q[0].shape[0]
h = stage.kq_bytes.shape[1]
measured = {
    "k_q": (per_token(stage.kq_bytes, h), per_token(pool.k_q, g)),
    "v_q": (per_token(stage.vq_bytes, h), per_token(pool.v_q, g)),
    "k_s": (per_token(stage.ks_bytes, h), per_token(pool.k_s, g)),
    "v_s": (per_token(stage.vs_bytes, h), per_token(pool.v_s, g)),
}
verify("r07", pool, stage, setup_kv, measured)
