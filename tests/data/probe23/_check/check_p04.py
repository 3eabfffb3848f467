import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p04")
from hf_offload.generation import prepare_static_cache

c = prepare_static_cache(device="meta", offload_device="meta", offload=True)
store = c.offloaded
tokens = c.max_batch_size * c.max_cache_len
assert len(c.key_cache) == 2 and store.num_layers == 28
m = {}
for name in ("key_cache", "value_cache"):
    d = _util.per_token_per_layer(getattr(c, name), tokens, len(getattr(c, name)))
    h = _util.per_token_per_layer(getattr(store, name), tokens, store.num_layers)
    m[name] = (h, d)
_util.verify("p04", m)
print("OK")
