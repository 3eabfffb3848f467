import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from gullserve.cluster import build_pd_caches
from gullserve.quant import KVQuantConfig

model = SimpleNamespace(
    architectures=["LlamaForCausalLM"], hidden_size=8192, num_attention_heads=64,
    num_key_value_heads=8, num_hidden_layers=80, intermediate_size=28672,
    torch_dtype="bfloat16",
)
dev, dec = build_pd_caches(model, KVQuantConfig(k_group=64, v_group=32), tp_size=16,
                           prefill_tokens=700_000, decode_tokens=1_800_000,
                           device="meta", decode_device="meta")
measured = {}
for a in ("k_q", "k_scales", "v_q", "v_scales"):
    d, o = getattr(dev, a), getattr(dec, a)
    assert len(d) == len(o) == 80
    measured[a] = (per_token(o[0], o[0].shape[0]), per_token(d[0], d[0].shape[0]))
verify("r08", dev, dec, build_pd_caches, measured)
