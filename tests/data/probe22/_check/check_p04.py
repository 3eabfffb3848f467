import _util
_util.tree_path("p04")
from fastgen_lite.engine_v2 import build_disaggregated_pair

prefill, decode = build_disaggregated_pair(prefill_bytes=1 << 30, decode_bytes=1 << 30,
                                           device="meta", decode_device="meta")
kv = prefill.kv_cache
cfg = kv.configs[0]
L = cfg.cache_shape[0]
d = {"kv": _util.bpt(kv._caches[0], kv.num_blocks[0] * cfg.block_size, L)}
m = {"kv": _util.bpt(decode.buffer, decode.num_blocks * decode.block_size, decode.num_layers)}
_util.verify("p04", d, m)
