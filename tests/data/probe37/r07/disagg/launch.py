"""Bring up a matched prefill/decode pair for one TP rank."""
from dataclasses import replace

import torch

from .decode_receiver import DecodeKVReceiver
from .model_specs import InstanceConfig, Role
from .prefill_store import PrefillKVStore


def build_cache_pair(device="cuda", model: str = "llama-3-70b", tp_size: int = 4,
                     kv_dtype: torch.dtype = torch.bfloat16, max_kv_tokens: int = 32768):
    prefill_cfg = InstanceConfig(model=model, role=Role.PREFILL, tp_size=tp_size,
                                 kv_dtype=kv_dtype, max_kv_tokens=max_kv_tokens)
    decode_cfg = replace(prefill_cfg, role=Role.DECODE)
    return PrefillKVStore(prefill_cfg, device=device), DecodeKVReceiver(decode_cfg, device=device)
