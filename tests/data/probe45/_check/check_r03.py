import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from quillserve.engine import build_pd_pools

hf = {
    "architectures": ["GemmaForCausalLM"],
    "hidden_size": 3072,
    "num_attention_heads": 16,
    "num_key_value_heads": 16,
    "head_dim": 256,
    "num_hidden_layers": 28,
    "torch_dtype": "bfloat16",
}
pre, dec = build_pd_pools(hf, tp_size=4, prefill_tokens=120000, decode_tokens=250000, device="meta")
g = pre.k_bufs[0].shape[0]
h = dec.k_store.shape[1]
measured = {
    "k_bufs": (per_token(dec.k_store, h), per_token(pre.k_bufs, g)),
    "v_bufs": (per_token(dec.v_store, h), per_token(pre.v_bufs, g)),
}
verify("r03", pre, dec, build_pd_pools, measured)
