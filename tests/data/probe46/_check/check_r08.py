import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from juniperkv.pd import launch_pd_pair

card = SimpleNamespace(
    architectures=["JuniperForCausalLM"], hidden_size=6144, num_attention_heads=48,
    num_key_value_heads=8, head_dim=192, v_head_dim=128, num_hidden_layers=48,
    kv_free_layers=(0, 47), torch_dtype="bfloat16",
)
dev, dec = launch_pd_pair(card, tp_size=2, prefill_blocks=12000, decode_blocks=30000,
                          device="meta", block_tokens=64)
assert sorted(dev.k_cache) == sorted(dec.k_cache) and len(dev.k_cache) == 46
measured = {}
for a in ("k_cache", "v_cache"):
    d, o = getattr(dev, a)[5], getattr(dec, a)[5]
    measured[a] = (per_token(o, o.shape[0] * o.shape[1]), per_token(d, d.shape[0] * d.shape[1]))
verify("r08", dev, dec, launch_pd_pair, measured)
