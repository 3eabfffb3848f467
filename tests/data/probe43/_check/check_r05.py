import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from cinderserve.configs import ServeArgs
from cinderserve.engine import create_block_caches

dev, host = create_block_caches(ServeArgs(device="meta", swap_device="meta"))
measured = {
    "kv_blocks": (per_token(host.blocks, 512 * 16), per_token(dev.kv_blocks, 256 * 16)),
}
verify("r05", dev, host, create_block_caches, measured)
