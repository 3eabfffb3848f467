import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from wrenlm.setup import setup_offload

cfg = SimpleNamespace(
    architectures=["Gemma2ForCausalLM"], hidden_size=3584, num_attention_heads=16,
    num_key_value_heads=8, head_dim=256, num_hidden_layers=42, sliding_window=4096,
    query_pre_attn_scalar=256, torch_dtype="bfloat16",
)
dev, off = setup_offload(cfg, tp_size=2, capacity_tokens=350_000, offload_factor=3.0,
                         device="meta", offload_device="meta",
                         max_running_requests=64)
assert len(dev.global_k) == len(off.global_k) == 21
assert len(dev.local_k) == len(off.local_k) == 21
measured = {}
for a in ("global_k", "global_v", "local_k", "local_v"):
    d, o = getattr(dev, a)[0], getattr(off, a)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r04", dev, off, setup_offload, measured)
