import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare, assert_device

setup("r07")
from kv_offload.worker import build_caches

gpu, cpu = build_caches(device="meta")
assert_device(gpu.kv_caches + cpu.kv_caches, "meta")
assert len(gpu.kv_caches) == gpu.num_layers and len(cpu.kv_caches) == cpu.num_layers
d = bpt((t, gpu.num_blocks * gpu.block_size, 1) for t in gpu.kv_caches)
h = bpt((t, cpu.num_blocks * cpu.block_size, 1) for t in cpu.kv_caches)
compare("r07", {"kv_caches": (h, d)})
