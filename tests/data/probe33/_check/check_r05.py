import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare, assert_device

setup("r05")
from ragged.engine import build_caches

dev, mirror = build_caches(device="meta")
assert_device([dev.caches, mirror.caches], "meta")
d = bpt([(dev.caches, dev.num_blocks * dev.block_size, dev.num_layers)])
m = bpt([(mirror.caches, mirror.num_blocks * mirror.block_size, mirror.num_layers)])
compare("r05", {"caches": (m, d)})
