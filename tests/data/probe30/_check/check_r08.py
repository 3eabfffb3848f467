from _common import use_tree, bptl, expect

use_tree("r08")
from v1cache.runner import initialize_kv_cache

dev, host = initialize_kv_cache(device="meta")
assert list(dev.kv_caches) == list(host.kv_caches) and len(dev.kv_caches) == 6
assert len({dev.num_tokens(n) for n in dev.kv_caches}) == 2  # sliding layers hold fewer tokens
for name in dev.kv_caches:
    expect(f"dev kv_caches[{name}]", bptl(dev.kv_caches[name], dev.num_tokens(name), 1), 1024)
    expect(f"host kv_caches[{name}]", bptl(host.kv_caches[name], host.num_tokens(name), 1), 1024)
print("OK")
