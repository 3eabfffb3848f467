import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from osprey_infer.runtime import ServingConfig, build_cache_pools

hf = {
    "architectures": ["DeepseekV2ForCausalLM"], "hidden_size": 2048, "num_attention_heads": 16,
    "num_key_value_heads": 16, "num_hidden_layers": 27, "kv_lora_rank": 512,
    "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128,
    "q_lora_rank": None, "torch_dtype": "bfloat16",
}
cfg = ServingConfig(max_total_tokens=400_000, pp_size=2, pp_rank=1, host_mem_gb=40.0)
dev, host = build_cache_pools(hf, cfg, device="meta", host_device="meta")
assert dev.num_local_layers == host.buffer.shape[0] == 13
d, h = dev.latent_kv, host.buffer
measured = {"latent_kv": (per_token(h, h.shape[0] * h.shape[1]),
                          per_token(d, d.shape[0] * d.shape[1] * d.shape[2]))}
verify("r03", dev, host, build_cache_pools, measured)
