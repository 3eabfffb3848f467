import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from otterserve.disagg import stand_up_disagg_pair

cfg = SimpleNamespace(
    architectures=["Qwen2ForCausalLM"], hidden_size=8192, num_attention_heads=64,
    num_key_value_heads=8, num_hidden_layers=80, intermediate_size=29568,
    torch_dtype="bfloat16",
)
pre = SimpleNamespace(tp_size=4, max_tokens=250_000, page_size=16, kv_cache_dtype="fp8_e4m3")
dec = SimpleNamespace(tp_size=4, max_tokens=400_000, page_size=16)
dev, other = stand_up_disagg_pair(cfg, pre, dec, device="meta", peer_device="meta")
assert len(dev.k_cache) == len(other.recv_k) == 80
measured = {}
for a, h in (("k_cache", "recv_k"), ("v_cache", "recv_v")):
    d, o = getattr(dev, a)[0], getattr(other, h)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r03", dev, other, stand_up_disagg_pair, measured)
