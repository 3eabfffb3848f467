import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare, assert_device

setup("r02")
from exl2srv.server import build_caches

dev, swap = build_caches(device="meta")
assert_device(dev.key_states + swap.key_states + dev.kv_scales + swap.kv_scales, "meta")
d_tok = dev.batch_size * dev.max_seq_len
s_tok = swap.num_slots * swap.max_seq_len
measured = {}
for name in ("key_states", "value_states", "kv_scales"):
    dl, sl = getattr(dev, name), getattr(swap, name)
    assert len(dl) == len(sl) == dev.num_layers
    measured[name] = (bpt((t, s_tok, 1) for t in sl), bpt((t, d_tok, 1) for t in dl))
compare("r02", measured)
