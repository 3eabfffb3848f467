import _util
_util.tree_path("p01")
from trtllm_lite.runtime.generation import build_session

s = build_session(max_blocks=512, device="meta", host_device="meta")
dev, host = s.kv_cache_manager, s.secondary_pool
d, m = {}, {}
for i, g in enumerate(dev.layer_groups):
    d["pools[%d]" % i] = _util.bpt(dev.pools[i], dev.num_tokens, g.num_layers)
for i, g in enumerate(host.layer_groups):
    m["pools[%d]" % i] = _util.bpt(host.pools[i], host.num_tokens, g.num_layers)
assert host.num_blocks > 1
_util.verify("p01", d, m)
