import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from finchlm.handshake import negotiate_pools

hf = {
    "architectures": ["LlamaForCausalLM"], "hidden_size": 8192, "num_attention_heads": 64,
    "num_key_value_heads": 8, "num_hidden_layers": 80, "intermediate_size": 28672,
    "torch_dtype": "bfloat16",
}
args = SimpleNamespace(tp_size=4, page_size=64, kv_group_size=32,
                       prefill_tokens=1_200_000, decode_tokens=2_000_000)
dev, dec = negotiate_pools(hf, args, device="meta", decode_device="meta")
assert len(dev.k_packed) == len(dec.k_packed) == 80
measured = {}
for a in ("k_packed", "v_packed", "k_meta", "v_meta"):
    d, o = getattr(dev, a)[0], getattr(dec, a)[0]
    measured[a] = (per_token(o, o.shape[0] * o.shape[1]), per_token(d, d.shape[0] * d.shape[1]))
verify("r04", dev, dec, negotiate_pools, measured)
