import torch

DEFAULTS = {
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "torch_dtype": "bfloat16",
    "kv_cache_dtype": "fp8_e4m3",
    "max_total_tokens": 131072,
    "spill_tokens": 262144,
}


def merged(cfg: dict) -> dict:
    out = dict(DEFAULTS)
    out.update({k: v for k, v in cfg.items() if v is not None})
    return out


def kv_token_bytes(num_layers: int, kv_heads: int, head_dim: int, dtype: torch.dtype) -> int:
    """Bytes for one token's K and V across every layer."""
    return 2 * num_layers * kv_heads * head_dim * dtype.itemsize
