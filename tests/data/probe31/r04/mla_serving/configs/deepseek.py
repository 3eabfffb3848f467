DEEPSEEK_V2_LITE = {
    "model": {
        "architectures": ["DeepseekV2ForCausalLM"],
        "num_hidden_layers": 4,
        "num_attention_heads": 16,
        "kv_lora_rank": 512,
        "q_lora_rank": None,
        "qk_nope_head_dim": 128,
        "qk_rope_head_dim": 64,
        "v_head_dim": 128,
        "torch_dtype": "bfloat16",
    },
    "server": {
        "kv_cache_dtype": "auto",
        "page_size": 1,
        "max_total_tokens": 256,
        "hicache": {
            "enabled": True,
            "ratio": 2.0,
            "pin_memory": False,
            "layout": "layer_first",
        },
    },
}
