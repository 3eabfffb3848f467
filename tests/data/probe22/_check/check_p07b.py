import os
import _util
os.environ["HYBRID_DEVICE"] = "meta"
os.environ["HYBRID_HOST_DEVICE"] = "meta"
_util.tree_path("p07b")
from hybrid_srv.deployment import HybridLLMDeployment

dep = HybridLLMDeployment()
pool, host, spec = dep.pool, dep.host, dep.spec
L = spec.num_attn_layers
assert L == 2
dtok = pool.num_blocks * spec.block_size
htok = host.num_blocks * spec.block_size

d = {"k_cache": _util.bpt(pool.k_cache, dtok, L), "v_cache": _util.bpt(pool.v_cache, dtok, L)}
m = {"k_cache": _util.bpt(host.k_cache, htok, L), "v_cache": _util.bpt(host.v_cache, htok, L)}
_util.verify("p07b", d, m)
