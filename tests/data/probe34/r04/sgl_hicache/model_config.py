"""Helpers over a HuggingFace-style config dict."""
import torch

DEFAULT_MODEL_CFG = {
    "architectures": ["LlamaForCausalLM"],
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "num_hidden_layers": 32,
    "torch_dtype": "bfloat16",
}

DEFAULT_SERVER_ARGS = {
    "tp_size": 4,
    "dp_size": 2,
    "enable_dp_attention": True,
    "page_size": 16,
    "max_total_tokens": 16384,
    "hicache_ratio": 2.0,
    "kv_cache_dtype": "auto",
}

_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16, "fp8_e4m3": torch.float8_e4m3fn}


def head_dim(cfg):
    return cfg.get("head_dim", cfg["hidden_size"] // cfg["num_attention_heads"])


def get_num_kv_heads(cfg, tp_size):
    return max(1, cfg["num_key_value_heads"] // tp_size)


def attn_tp_size(server_args):
    if server_args.get("enable_dp_attention"):
        return server_args["tp_size"] // server_args["dp_size"]
    return server_args["tp_size"]


def kv_cache_dtype(cfg, server_args):
    name = server_args.get("kv_cache_dtype", "auto")
    return _DTYPES[cfg["torch_dtype"] if name == "auto" else name]
