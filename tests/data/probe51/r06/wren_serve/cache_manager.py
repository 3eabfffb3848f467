"""Assembles the device pool and its host tier."""
from __future__ import annotations

from .device_kv import AsymKVDevicePool
from .host_kv import AsymKVHostPool
from .model_dims import AttnDims, cache_dtype


def build_hierarchy(hf: dict, server_args, device: str = "cuda", host_device: str = "cpu"):
    dims = AttnDims.from_hf(hf, server_args.tp_size)
    dtype = cache_dtype(hf, server_args.kv_cache_dtype)
    layers = hf["num_hidden_layers"]
    gpu = AsymKVDevicePool(dims, server_args.max_total_tokens, dtype, layers, device=device)
    host = AsymKVHostPool(dims, int(server_args.max_total_tokens * server_args.hicache_ratio),
                          dtype, layers, page_size=server_args.page_size, device=host_device)
    return gpu, host
