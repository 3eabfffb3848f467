"""Allocate device pool + offload store."""
import torch

from .config import CacheConfig, ModelConfig
from .offload import OffloadKVStore
from .pools import select_pool_cls

_DTYPES = {"int8": torch.int8, "fp16": torch.float16, "bf16": torch.bfloat16}


def build_kv(model_cfg=None, cache_cfg=None, device="cuda", offload_device="cpu"):
    model_cfg = model_cfg or ModelConfig()
    cache_cfg = cache_cfg or CacheConfig()
    kv_heads = model_cfg.num_key_value_heads // cache_cfg.tp_size
    dtype = _DTYPES[cache_cfg.cache_dtype]
    pool_cls = select_pool_cls(cache_cfg.cache_dtype)
    pool = pool_cls(cache_cfg.max_tokens, model_cfg.num_hidden_layers, kv_heads,
                    model_cfg.head_dim, dtype=dtype, device=device)
    store = OffloadKVStore(
        model_cfg.num_hidden_layers, kv_heads, model_cfg.head_dim,
        budget_bytes=cache_cfg.offload_bytes,
        dtype=dtype,
        quantized=cache_cfg.quantized,
        layout=cache_cfg.layout,
        device=offload_device,
    )
    return pool, store
