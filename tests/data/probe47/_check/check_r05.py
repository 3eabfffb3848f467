import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from kestrel.launch import make_hierarchy

cfg = SimpleNamespace(
    architectures=["MistralForCausalLM"], hidden_size=5120, num_attention_heads=32,
    num_key_value_heads=8, head_dim=128, num_hidden_layers=40, torch_dtype="bfloat16",
)
dev, host = make_hierarchy(cfg, "fp8_e4m3", tp_size=2, gpu_tokens=750_000, host_tokens=2_000_000,
                           device="meta", host_device="meta")
assert dev.layer_count == host.layer_count == 40
measured = {}
for a in ("k_data", "v_data", "k_scale", "v_scale"):
    d, o = getattr(dev, a), getattr(host, a)
    assert len(d) == len(o) == 40
    measured[a] = (per_token(o[0], o[0].shape[0]), per_token(d[0], d[0].shape[0]))
verify("r05", dev, host, make_hierarchy, measured)
