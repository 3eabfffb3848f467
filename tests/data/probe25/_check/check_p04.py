import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _util import run, bptl

SWAP_ATTR = {"k_caches": "host_k", "v_caches": "host_v",
             "k_scales_zeros": "host_k_sz", "v_scales_zeros": "host_v_sz"}


def build(build_cache_engines):
    gpu, swap = build_cache_engines(device="meta", swap_device="meta")
    out = {}
    for name, sname in SWAP_ATTR.items():
        out[name] = (
            bptl(getattr(swap, sname), swap.num_blocks * swap.block_size, swap.num_layers),
            bptl(getattr(gpu, name), gpu.num_blocks * gpu.block_size, gpu.num_layers),
        )
    return gpu, swap, out


run("p04", build)
