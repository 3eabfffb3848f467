from typing import List

import torch

from .hparams import HParams


def _dtype_from_str(name: str, fallback: torch.dtype) -> torch.dtype:
    if name == "auto":
        return fallback
    if name.startswith("fp8"):
        return getattr(torch, "float8_e5m2" if name.endswith("e5m2") else "float8_e4m3fn")
    return getattr(torch, name)


class DraftKVCache:
    """KV for the EAGLE draft layer(s); indexed by the target's entry ids so the
    same copy/transfer kernels apply to both."""

    def __init__(self, hp: HParams, num_entries: int, tp_size: int, n_layer: int = 1, device="cuda"):
        self.n_layer = n_layer
        self.num_entries = num_entries
        self.n_kv_head = hp.n_kv_head // tp_size if hp.n_kv_head >= tp_size else 1
        self.head_dim = hp.head_dim if hp.head_dim else hp.n_embd // hp.n_head
        self.dtype = _dtype_from_str(hp.kv_cache_dtype, hp.act_dtype)
        shape = (num_entries, self.n_kv_head, self.head_dim)
        self.key_cache: List[torch.Tensor] = [torch.zeros(shape, dtype=self.dtype, device=device) for _ in range(n_layer)]
        self.value_cache: List[torch.Tensor] = [torch.zeros(shape, dtype=self.dtype, device=device) for _ in range(n_layer)]

    def layer_kv(self, layer: int):
        return self.key_cache[layer], self.value_cache[layer]
