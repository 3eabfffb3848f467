"""Builds the GPU pool and its host mirror from the model and server config."""
from __future__ import annotations

from typing import Any, Mapping

import torch

from .gpu_pool import DeviceKVPool, resolve_cache_dtype
from .host_pool import HostKVMirror, host_storage_dtype
from .typing_ext import DeviceLike, TokenShape


def _token_shape(hf: Mapping[str, Any], tp_size: int) -> TokenShape:
    n_kv = hf.get("num_key_value_heads") or hf["num_attention_heads"]
    head_dim = hf.get("head_dim") or hf["hidden_size"] // hf["num_attention_heads"]
    if n_kv % tp_size:
        raise ValueError(f"{n_kv} kv heads cannot be split over tp={tp_size}")
    return (n_kv // tp_size, head_dim)


def build_kv_tiers(hf: Mapping[str, Any], server_args: Any,
                   device: DeviceLike = "cuda", host_device: DeviceLike = "cpu"):
    """Return ``(gpu_pool, host_pool)`` for this tensor-parallel rank."""
    model_dtype = getattr(torch, hf.get("torch_dtype", "bfloat16"))
    shape = _token_shape(hf, server_args.tp_size)
    layers = hf["num_hidden_layers"]
    gpu = DeviceKVPool(
        max_tokens=server_args.max_total_tokens,
        n_layers=layers,
        token_shape=shape,
        dtype=resolve_cache_dtype(server_args.kv_cache_dtype, model_dtype),
        device=device,
    )
    host = HostKVMirror(
        capacity=int(server_args.max_total_tokens * server_args.host_ratio),
        n_layers=layers,
        token_shape=shape,
        dtype=host_storage_dtype(server_args.kv_cache_dtype, model_dtype),
        device=host_device,
    )
    return gpu, host
