"""Engine start-up: nested dict config -> constructor kwargs."""
import torch

from .cache import PagedKVCache
from .swap import SwapSpace

DEFAULT_CONFIG = {
    "model": {
        "num_hidden_layers": 2,
        "num_attention_heads": 8,
        "num_key_value_heads": 4,
        "hidden_size": 256,
        "dtype": "float16",
    },
    "parallel": {"tensor_parallel_size": 2},
    "cache": {"pool_size": 64, "page_size": 16, "layout": "nhd", "swap_ratio": 1.5},
}


def cache_kwargs(cfg):
    model, par, cache = cfg["model"], cfg["parallel"], cfg["cache"]
    return {
        "pool_size": cache["pool_size"],
        "page_size": cache["page_size"],
        "depth": model["num_hidden_layers"],
        "heads": model["num_key_value_heads"] // par["tensor_parallel_size"],
        "dim": model["hidden_size"] // model["num_attention_heads"],
        "dtype": getattr(torch, model["dtype"]),
        "layout": cache["layout"],
    }


def build_kv(cfg=None, device="cuda", swap_device="cpu"):
    cfg = cfg or DEFAULT_CONFIG
    kwargs = cache_kwargs(cfg)
    gpu = PagedKVCache(**kwargs, device=device)
    swap = SwapSpace(gpu, cfg["cache"]["swap_ratio"], device=swap_device)
    return gpu, swap
