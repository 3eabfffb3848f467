import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p07")
for k in list(os.environ):
    if k.startswith("MC_") or k == "MOONCAKE_CONFIG":
        del os.environ[k]
from mc_serving.server import bootstrap

pool, st, _ = bootstrap(device="meta", staging_device="meta")
L = pool.spec.num_layers
assert L == 80 and len(pool.kv_buffer) == L
m = {"kv_buffer": (_util.per_token_per_layer(st.kv_buffer, st.num_slots, L),
                   _util.per_token_per_layer(pool.kv_buffer, pool.num_tokens, L))}
_util.verify("p07", m)
print("OK")
