import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _util import run, bptl


def build(launch_disagg_pair):
    pool, recv = launch_disagg_pair(device="meta", decode_device="meta")
    d_tok, d_lay = pool.size + pool.page_size, len(pool.kv_buffer)
    r_tok, r_lay = recv.num_pages * recv.page_size, len(recv.recv_buffers)
    return pool, recv, {
        "kv_buffer": (bptl(recv.recv_buffers, r_tok, r_lay), bptl(pool.kv_buffer, d_tok, d_lay)),
    }


run("p02", build)
