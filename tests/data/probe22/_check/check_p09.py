import _util
_util.tree_path("p09")
from xfer.agent import KVTransferAgent

agent = KVTransferAgent({"backend": {"device": "meta", "staging_device": "meta"}})
pool, stg = agent.setup()
L = pool.num_layers
dtok = pool.num_pages * pool.page_size
htok = stg.num_pages * stg.page_size
d = {n: _util.bpt(getattr(pool, n), dtok, L) for n in ("kv_pages", "kv_scales")}
m = {n: _util.bpt(getattr(stg, n), htok, stg.num_layers) for n in ("kv_pages", "kv_scales")}
# the flat regions must be fully covered by the structured views
assert pool.kv_pages.nbytes == pool.kv_region.raw.nbytes
assert stg.kv_scales.nbytes == stg.scale_region.raw.nbytes
_util.verify("p09", d, m)
