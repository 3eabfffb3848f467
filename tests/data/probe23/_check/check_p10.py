import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p10")
for k in list(os.environ):
    if k.startswith("EXL2_"):
        del os.environ[k]
from exl2_serve.generator import DynamicJobServer

s = DynamicJobServer(device="meta", swap_device="meta")
c, sw = s.cache, s.swap
assert c.num_hidden_layers == sw.num_layers == 32
m = {}
for name in ("key_states", "value_states", "key_scales", "value_scales"):
    m[name] = (_util.per_token_per_layer(getattr(sw, name), sw.num_slots, sw.num_layers),
               _util.per_token_per_layer(getattr(c, name), c.num_slots, c.num_hidden_layers))
_util.verify("p10", m)
print("OK")
