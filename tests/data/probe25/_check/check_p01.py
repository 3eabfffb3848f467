import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _util import run, bptl


def build(initialize_kv_cache):
    from lumen.worker.runner import ModelRunnerLite
    runner = ModelRunnerLite()
    dev, off = initialize_kv_cache(runner, device="meta", host_device="meta")
    d_tok, d_lay = dev.num_blocks * dev.block_size, len(dev.kv_caches)
    o_tok, o_lay = off.num_blocks * off.block_size, len(off.layer_buffers)
    return dev, off, {
        "kv_caches": (bptl(off.layer_buffers, o_tok, o_lay), bptl(dev.kv_caches, d_tok, d_lay)),
    }


run("p01", build)
