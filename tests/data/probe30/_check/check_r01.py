from _common import use_tree, bptl, expect

use_tree("r01")
from turbocache.engine import build_cache_engine

dev, host = build_cache_engine(device="meta")
assert all(t.device.type == "meta" for t in dev.key_blocks + host.key_blocks)
L = dev.num_layers
assert len(dev.key_blocks) == L and len(host.key_blocks) == host.num_layers == L
dev_tok = dev.num_blocks * dev.block_size
host_tok = host.num_blocks * host.block_size

expect("dev key_blocks", bptl(dev.key_blocks, dev_tok, L), 1024)
expect("dev value_blocks", bptl(dev.value_blocks, dev_tok, L), 1024)
expect("host key_blocks", bptl(host.key_blocks, host_tok, L), 2048)
expect("host value_blocks", bptl(host.value_blocks, host_tok, L), 2048)
print("OK")
