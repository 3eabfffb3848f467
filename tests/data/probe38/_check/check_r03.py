import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from mii_ragged.engine_factory import build_ragged_kv

dev, host = build_ragged_kv(device="meta", host_device="meta")
d = dev.kv_blocks.shape      # (blocks, layers, 2, block_size, heads, dim)
h = host.host_blocks.shape   # [layers, blocks, block_size, row]
measured = {
    "kv_blocks": (per_token(host.host_blocks, h[1] * h[2]),
                  per_token(dev.kv_blocks, d[0] * d[3])),
}
verify("r03", dev, host, build_ragged_kv, measured)
