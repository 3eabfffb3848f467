from _common import use_tree, bptl, expect

use_tree("r06")
from kvstore.factory import make_kv_store

dev, host = make_kv_store(device="meta")
assert type(host).__name__ == "PinnedHostTier"
L = dev.num_layers
assert dev.kv_data.shape[0] == L and host.layout.num_layers == L
expect("dev kv_data", bptl(dev.kv_data, dev.num_tokens, L), 4096)
expect("host kv_data", bptl(host.kv_data, host.num_tokens, L), 4096)
print("OK")
