"""Allocates the device KV buffers and the host mirror."""
from __future__ import annotations

from typing import Any, Mapping

import torch

from .formats import CacheFormat
from .memory.device import DeviceKVBuffers
from .memory.host import HostKVMirror


def allocate_kv_hierarchy(hf: Mapping[str, Any], kv_cache_dtype: str, tp_size: int, gpu_tokens: int,
                          host_tokens: int, device: str = "cuda",
                          host_device: str = "cpu") -> tuple[DeviceKVBuffers, HostKVMirror]:
    model_dtype = getattr(torch, hf.get("torch_dtype", "bfloat16"))
    fmt = CacheFormat.parse(kv_cache_dtype, model_dtype)
    heads = hf["num_key_value_heads"] // tp_size
    head_dim = hf.get("head_dim") or hf["hidden_size"] // hf["num_attention_heads"]
    layers = hf["num_hidden_layers"]
    dev = DeviceKVBuffers(fmt, layers, heads, head_dim, gpu_tokens, device)
    host = HostKVMirror(fmt, layers, heads, head_dim, host_tokens, host_device)
    if host.tokens * host.bytes_per_token < dev.tokens * dev.bytes_per_token:
        raise RuntimeError("host mirror must be at least as large as the device pool")
    return dev, host
