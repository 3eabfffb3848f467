from _common import use_tree, bptl, expect

use_tree("r04")
from llkv.context import init_context_kv

dev, host = init_context_kv(device="meta")
assert dev.n_layer == host.n_layer == 8
assert dev.kv_size == host.kv_size and min(dev.kv_size) < max(dev.kv_size)
for il in range(dev.n_layer):
    n = dev.kv_size[il]
    expect(f"dev k_l[{il}]", bptl(dev.k_l[il], n, 1), 1536)
    expect(f"host k_l[{il}]", bptl(host.k_l[il], host.kv_size[il], 1), 1536)
    expect(f"dev v_l[{il}]", bptl(dev.v_l[il], n, 1), 1024)
    expect(f"host v_l[{il}]", bptl(host.v_l[il], host.kv_size[il], 1), 1024)
print("OK")
