import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p05")
from specd.engine import Engine

e = Engine.from_cli(["--device", "meta"])
t, d = e.kv_pool, e.proposer.kv_pool
assert t.num_layers == 32 and d.num_layers == 1
m = {}
for name in ("k_cache", "v_cache"):
    m[name] = (_util.per_token_per_layer(getattr(d, name), d.num_slots, d.num_layers),
               _util.per_token_per_layer(getattr(t, name), t.num_slots, t.num_layers))
_util.verify("p05", m)
print("OK")
