import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _util import run, bptl


def build(engine_build):
    eng = engine_build(device="meta", staging_device="meta")
    store, stg = eng.kv_store, eng.staging
    spec = store.specs[0]
    d_tok, d_lay = store.num_blocks * spec.block_size, spec.cache_shape[0]
    s_tok, s_lay = stg.num_blocks * stg.block_size, stg.num_layers
    return store, stg, {
        "caches": (bptl(stg.bounce, s_tok, s_lay), bptl(store.caches, d_tok, d_lay)),
    }


run("p06", build)
