"""Storage descriptions shared by the device and host pools."""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch

_KV_DTYPES = {
    "auto": None,
    "fp8_e5m2": torch.float8_e5m2,
    "fp8_e4m3": torch.float8_e4m3fn,
}


@dataclass(frozen=True)
class AttnStorage:
    layer_ids: tuple
    kv_heads: int
    head_dim: int
    dtype: torch.dtype
    slots: int

    @property
    def token_shape(self) -> tuple:
        return (self.kv_heads, self.head_dim)


@dataclass(frozen=True)
class MambaStorage:
    layer_ids: tuple
    conv_shape: tuple
    ssm_shape: tuple
    dtype: torch.dtype
    max_requests: int


def layer_plan(cfg: dict) -> tuple:
    period, offset = cfg["attn_layer_period"], cfg["attn_layer_offset"]
    attn = tuple(i for i in range(cfg["num_hidden_layers"]) if i % period == offset)
    mamba = tuple(i for i in range(cfg["num_hidden_layers"]) if i % period != offset)
    return attn, mamba


def attn_storage(cfg: dict, tp: int, kv_cache_dtype: str, slots: int) -> AttnStorage:
    attn_ids, _ = layer_plan(cfg)
    model_dtype = getattr(torch, cfg["torch_dtype"])
    dtype = _KV_DTYPES[kv_cache_dtype] or model_dtype
    head_dim = cfg["hidden_size"] // cfg["num_attention_heads"]
    heads = max(1, math.ceil(cfg["num_key_value_heads"] / tp))
    return AttnStorage(attn_ids, heads, head_dim, dtype, slots)


def mamba_storage(cfg: dict, tp: int, max_requests: int) -> MambaStorage:
    _, mamba_ids = layer_plan(cfg)
    d_inner = cfg["mamba_expand"] * cfg["hidden_size"] // tp
    return MambaStorage(
        mamba_ids,
        conv_shape=(d_inner, cfg["mamba_d_conv"]),
        ssm_shape=(d_inner, cfg["mamba_d_state"]),
        dtype=getattr(torch, cfg["torch_dtype"]),
        max_requests=max_requests,
    )
