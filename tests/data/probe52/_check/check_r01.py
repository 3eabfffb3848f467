import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from marmotkv.launch import assemble_latent_tiers

hf = {
    "architectures": ["DeepseekV2ForCausalLM"], "hidden_size": 2048, "num_attention_heads": 16,
    "num_key_value_heads": 16, "num_hidden_layers": 27, "kv_lora_rank": 512,
    "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
    "q_lora_rank": None, "torch_dtype": "bfloat16",
}
opts = SimpleNamespace(gpu_tokens=300_000, offload_ratio=3.0, kv_format="auto", page_tokens=16)
dev, tier = assemble_latent_tiers(hf, opts, device="meta", offload_device="meta")
assert len(dev.latent) == len(tier.rows) == 27
d, o = dev.latent[0], tier.rows[0]
measured = {"latent": (per_token(o, o.shape[0]), per_token(d, d.shape[0]))}
verify("r01", dev, tier, assemble_latent_tiers, measured)
