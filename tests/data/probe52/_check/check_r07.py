import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from lynxinfer.serve import open_kv_caches

cfg = SimpleNamespace(
    architectures=["Gemma2ForCausalLM"], hidden_size=3584, num_attention_heads=16,
    num_key_value_heads=8, head_dim=256, num_hidden_layers=42, intermediate_size=14336,
    sliding_window=4096, query_pre_attn_scalar=256, torch_dtype="bfloat16",
)
run = SimpleNamespace(tp_size=1, max_tokens=200_000, max_running=16, mirror_ratio=2.0,
                      dtype="bfloat16")
dev, mirror = open_kv_caches(cfg, run, device="meta", mirror_device="meta")
assert sum(len(v) for v in dev.k_slabs.values()) == 42
assert len(dev.k_slabs["sliding_attention"]) == len(mirror.k_store["sliding_attention"]) == 21
measured = {}
for a, h in (("k_slabs", "k_store"), ("v_slabs", "v_store")):
    d = getattr(dev, a)["sliding_attention"][0]
    o = getattr(mirror, h)["sliding_attention"][0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r07", dev, mirror, open_kv_caches, measured)
