"""Model geometry for DeepSeek-V3.2 style checkpoints (MLA + NSA indexer)."""
from types import SimpleNamespace

import torch

DEEPSEEK_V32_HF_CONFIG = {
    "architectures": ["DeepseekV32ForCausalLM"],
    "num_hidden_layers": 61,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
    "qk_nope_head_dim": 128,
    "v_head_dim": 128,
    "index_head_dim": 128,
    "index_n_heads": 64,
    "torch_dtype": "bfloat16",
}


def default_server_args(**overrides) -> SimpleNamespace:
    args = SimpleNamespace(
        page_size=64,
        max_total_tokens=64 * 1024,
        hicache_ratio=2.0,
        kv_cache_dtype="auto",
        device="cuda",
        host_device="cpu",
    )
    for k, v in overrides.items():
        setattr(args, k, v)
    return args


def str_to_dtype(name: str) -> torch.dtype:
    return {
        "bfloat16": torch.bfloat16,
        "float16": torch.float16,
        "fp8_e4m3": torch.float8_e4m3fn,
    }[name]
