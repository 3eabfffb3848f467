import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from kestrel_pd.bootstrap import pair_prefill_decode

hf = {
    "architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
    "hidden_size": 7168, "num_attention_heads": 128, "num_key_value_heads": 128,
    "num_hidden_layers": 61, "kv_lora_rank": 512, "q_lora_rank": 1536,
    "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
    "n_routed_experts": 256, "num_experts_per_tok": 8, "torch_dtype": "bfloat16",
}
args = SimpleNamespace(kv_cache_dtype="fp8_e4m3", gpu_kv_gib=38.0, page_size=64,
                       decode_pages=9000)
pre, dec = pair_prefill_decode(hf, args, device="meta")
assert len(pre.rope_cache) == len(dec.rope_cache) == 61
measured = {}
for a in ("latent_cache", "latent_scale", "rope_cache"):
    d, o = getattr(pre, a)[0], getattr(dec, a)[0]
    measured[a] = (per_token(o, o.shape[0] * o.shape[1]), per_token(d, d.shape[0]))
verify("r02", pre, dec, pair_prefill_decode, measured)
