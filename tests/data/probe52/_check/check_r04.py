import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from wrenllm.bootstrap import pair_prefill_decode

hf = {
    "architectures": ["Qwen2ForCausalLM"], "hidden_size": 3584, "num_attention_heads": 28,
    "num_key_value_heads": 4, "num_hidden_layers": 28, "intermediate_size": 18944,
    "torch_dtype": "bfloat16",
}
pre = SimpleNamespace(tp=8, max_tokens=500_000, block=32, kv_cache_dtype="fp8_e5m2")
dec = SimpleNamespace(tp=8, max_tokens=900_000, block=32, kv_cache_dtype="fp8_e5m2")
dev, other = pair_prefill_decode(hf, pre, dec, device="meta", decode_device="meta")
assert len(dev.key_pages) == len(other.in_keys) == 28
pairs = (("key_pages", "in_keys"), ("value_pages", "in_values"),
         ("key_scales", "in_key_scales"), ("value_scales", "in_value_scales"))
measured = {}
for a, h in pairs:
    d, o = getattr(dev, a)[0], getattr(other, h)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r04", dev, other, pair_prefill_decode, measured)
