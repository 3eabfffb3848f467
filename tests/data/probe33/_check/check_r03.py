import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare, assert_device

setup("r03")
from kvbm.manager import build_block_managers

dev, host = build_block_managers(device="meta")
assert_device([dev.kv_blocks, host.kv_blocks], "meta")
d = bpt([(dev.kv_blocks, dev.num_blocks * dev.block_size, dev.num_layers)])
h = bpt([(host.kv_blocks, host.num_blocks * host.block_size, host.num_layers)])
compare("r03", {"kv_blocks": (h, d)})
