import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from cobaltkv.manager import make_swap_pair

cfg = SimpleNamespace(
    architectures=["LlamaForCausalLM"], hidden_size=8192, num_attention_heads=64,
    num_key_value_heads=8, num_hidden_layers=80, torch_dtype="bfloat16",
)
dev, mirror = make_swap_pair(cfg, tp_size=16, gpu_tokens=1_000_000, swap_gib=16,
                             device="meta", swap_device="meta")
assert dev.layer_count == mirror.layer_count == 80
measured = {}
for a in ("keys", "values"):
    d, o = getattr(dev, a)[0], getattr(mirror, a)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r06", dev, mirror, make_swap_pair, measured)
