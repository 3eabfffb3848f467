import torch

_TORCH_DTYPES = {
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "int8": torch.int8,
    "fp8": torch.float8_e4m3fn,
}

DEFAULT_PRETRAINED = {
    "architecture": "LlamaForCausalLM",
    "num_hidden_layers": 40,
    "num_attention_heads": 40,
    "num_key_value_heads": 8,
    "hidden_size": 5120,
    "dtype": "float16",
}


def str_dtype_to_torch(name: str) -> torch.dtype:
    return _TORCH_DTYPES[name]


def head_size(cfg: dict) -> int:
    return cfg.get("head_size", cfg["hidden_size"] // cfg["num_attention_heads"])


def kv_cache_torch_dtype(cfg: dict, kv_settings) -> torch.dtype:
    if kv_settings.dtype == "auto":
        return str_dtype_to_torch(cfg["dtype"])
    return str_dtype_to_torch(kv_settings.dtype)
