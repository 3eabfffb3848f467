import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from loonrt.serve import create_caches

model = SimpleNamespace(
    architectures=["MistralForCausalLM"], hidden_size=5120, num_attention_heads=32,
    num_key_value_heads=8, head_dim=128, num_hidden_layers=40, torch_dtype="bfloat16",
)
ini = """
[cache]
tensor_parallel = 1
gpu_slots = 480000
swap_slots = 1600000
"""
dev, swap = create_caches(model, ini, device="meta", swap_device="meta")
measured = {}
for a in ("k_data", "v_data", "k_scale", "v_scale"):
    d, o = getattr(dev, a), getattr(swap, a)
    assert len(d) == len(o) == 40
    measured[a] = (per_token(o[0], o[0].shape[0]), per_token(d[0], d[0].shape[0]))
verify("r06", dev, swap, create_caches, measured)
