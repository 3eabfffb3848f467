import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from corvid_kv.bootstrap import setup_cache

model = SimpleNamespace(
    architectures=["Qwen2ForCausalLM"], hidden_size=3584, num_attention_heads=28,
    num_key_value_heads=4, num_hidden_layers=28, intermediate_size=18944,
    torch_dtype="bfloat16",
)
cache = SimpleNamespace(cache_dtype="fp8", gpu_slots=900_000, host_slots=3_000_000)
dev, host = setup_cache(model, cache, tp_size=2, device="meta", host_device="meta")
assert type(host).__name__ == "HostTokenMirror"
measured = {}
for a in ("kv", "kv_scale"):
    d, o = getattr(dev, a), getattr(host, a)
    assert len(d) == len(o) == 28
    measured[a] = (per_token(o[0], o[0].shape[0]), per_token(d[0], d[0].shape[0]))
verify("r02", dev, host, setup_cache, measured)
