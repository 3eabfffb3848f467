import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from quillserve.disagg.bootstrap import bootstrap_pd_pools

hf = {
    "architectures": ["DeepseekV3ForCausalLM"],
    "hidden_size": 7168,
    "num_hidden_layers": 61,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
    "qk_nope_head_dim": 128,
    "num_nextn_predict_layers": 1,
}
dev, dec = bootstrap_pd_pools(hf, "fp8_e4m3", prefill_slots=400000, decode_slots=900000, device="meta")
g = dev.latent_cache[0].shape[0]
h = dec.latent_cache[0].shape[0]
assert len(dev.latent_cache) == len(dec.latent_cache) == 62
measured = {a: (per_token(getattr(dec, a)[0], h), per_token(getattr(dev, a)[0], g))
            for a in ("latent_cache", "rope_cache", "kv_scale")}
verify("r02", dev, dec, bootstrap_pd_pools, measured)
