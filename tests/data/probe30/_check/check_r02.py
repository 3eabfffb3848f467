from _common import use_tree, bptl, expect

use_tree("r02")
from trtkv.build import create_kv_cache_manager

dev, host = create_kv_cache_manager(device="meta")
assert dev.num_layers == host.num_layers == 8
dev_tok = dev.blocks_in_primary_pool * dev.tokens_per_block
host_tok = host.blocks_in_secondary_pool * host.tokens_per_block
assert host.kv_cache_pool_per_layer[0].dtype.__repr__() == "torch.uint8"
want = [2048, 2048, 1024, 1024, 2048, 2048, 1024, 1024]
for i, w in enumerate(want):
    expect(f"dev kv_cache_pool_per_layer[{i}]", bptl(dev.kv_cache_pool_per_layer[i], dev_tok, 1), w)
    expect(f"host kv_cache_pool_per_layer[{i}]", bptl(host.kv_cache_pool_per_layer[i], host_tok, 1), w)
print("OK")
