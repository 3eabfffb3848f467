import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from osprey.disagg.bootstrap import bootstrap_pd

hf = {
    "architectures": ["Qwen2ForCausalLM"], "hidden_size": 5120, "num_attention_heads": 40,
    "num_key_value_heads": 8, "num_hidden_layers": 64, "intermediate_size": 27648,
    "torch_dtype": "bfloat16",
}
dev, dec = bootstrap_pd(hf, tp_size=4, prefill_slots=480_000, decode_slots=1_100_000,
                        kv_cache_dtype="auto", page_size=32, device="meta")
assert len(dev.k_buffer) == len(dec.k_buffer) == 64
measured = {}
for a in ("k_buffer", "v_buffer"):
    d, o = getattr(dev, a)[0], getattr(dec, a)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r02", dev, dec, bootstrap_pd, measured)
