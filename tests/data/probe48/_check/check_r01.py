import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from pelicache.engine import build_kv_tiers

hf = {
    "architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 32,
    "intermediate_size": 14336, "torch_dtype": "bfloat16",
}
args = SimpleNamespace(tp_size=1, max_total_tokens=420_000, host_ratio=2.5,
                       kv_cache_dtype="fp8_e5m2")
dev, host = build_kv_tiers(hf, args, device="meta", host_device="meta")
assert len(dev.k_bufs) == len(host.k_host) == 32
measured = {}
for a, h in (("k_bufs", "k_host"), ("v_bufs", "v_host")):
    d, o = getattr(dev, a)[0], getattr(host, h)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r01", dev, host, build_kv_tiers, measured)
