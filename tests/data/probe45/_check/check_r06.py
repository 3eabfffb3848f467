import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from ospreyinfer.disagg import prepare_transfer

hf = {
    "architectures": ["DeepseekV3ForCausalLM"],
    "hidden_size": 7168,
    "num_attention_heads": 128,
    "num_hidden_layers": 61,
    "kv_lora_rank": 512,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "torch_dtype": "bfloat16",
}
cache, stage = prepare_transfer(hf, num_slots=400000, chunk_tokens=8192,
                                device="meta", staging_device="meta")
g = cache.latent_cache[0].shape[0]
h = stage.latent_stage.shape[1]
measured = {
    "latent_cache": (per_token(stage.latent_stage, h), per_token(cache.latent_cache, g)),
    "rope_cache": (per_token(stage.rope_stage, h), per_token(cache.rope_cache, g)),
}
verify("r06", cache, stage, prepare_transfer, measured)
