import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _util import run, bptl


def build(ctx_init):
    from pyllama.context import LlamaishContext
    ctx = LlamaishContext.__new__(LlamaishContext)
    ctx_init(ctx, device="meta", host_device="meta")
    kv, snap = ctx.kv, ctx.snapshot
    return kv, snap, {
        "k_l": (bptl(snap.k_rows, snap.n_cells, snap.n_layer), bptl(kv.k_l, kv.kv_size, kv.hp.n_layer)),
        "v_l": (bptl(snap.v_rows, snap.n_cells, snap.n_layer), bptl(kv.v_l, kv.kv_size, kv.hp.n_layer)),
    }


run("p05", build)
