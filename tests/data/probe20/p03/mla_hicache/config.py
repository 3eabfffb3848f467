# HF-style model config (subset) and runtime knobs, kept as plain dicts so
# they can be loaded straight from config.json / the launcher's YAML.
DEEPSEEK_V3 = {
    "architectures": ["DeepseekV3ForCausalLM"],
    "num_hidden_layers": 61,
    "kv_lora_rank": 512,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "torch_dtype": "bfloat16",
}

RUNTIME = {
    "kv_cache_dtype": "fp8_e4m3",
    "max_total_tokens": 163840,
    "page_size": 64,
    "hicache_ratio": 2.0,
}
