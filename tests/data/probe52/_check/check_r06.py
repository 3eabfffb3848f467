import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from kestrelserve.runtime import init_int4_cache

cfg = SimpleNamespace(
    architectures=["MistralForCausalLM"], hidden_size=5120, num_attention_heads=32,
    num_key_value_heads=8, head_dim=128, num_hidden_layers=40, intermediate_size=14336,
    torch_dtype="bfloat16",
)
sched = SimpleNamespace(tp_size=2, max_tokens=700_000, page_size=16, host_ratio=2.0, int4_group=64)
dev, host = init_int4_cache(cfg, sched, device="meta", host_device="meta")
assert dev.key_codes.shape[0] == host.rows.shape[0] == 40
measured = {}
for a in ("key_codes", "key_scales", "value_codes", "value_scales"):
    d, o = getattr(dev, a), getattr(host, a)
    measured[a] = (per_token(o, o.shape[0] * o.shape[1]), per_token(d, d.shape[0] * d.shape[1]))
verify("r06", dev, host, init_int4_cache, measured)
