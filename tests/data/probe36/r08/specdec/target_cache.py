from typing import Protocol, Tuple

import torch

from .hparams import HParams, divide

KV_DTYPES = {
    "auto": None,
    "fp8": torch.float8_e4m3fn,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


class KVStore(Protocol):
    n_layer: int
    num_entries: int

    def layer_kv(self, layer: int) -> Tuple[torch.Tensor, torch.Tensor]: ...


class TargetKVCache:
    """Target-model KV: a single [n_layer, 2, entries, heads, head_dim] byte tensor."""

    def __init__(self, n_layer, num_entries, n_kv_head, head_dim, dtype: torch.dtype, device="cuda"):
        self.n_layer = n_layer
        self.num_entries = num_entries
        self.n_kv_head = n_kv_head
        self.head_dim = head_dim
        self.dtype = dtype
        storage = torch.uint8 if dtype.itemsize == 1 else dtype
        self.kv = torch.zeros((n_layer, 2, num_entries, n_kv_head, head_dim), dtype=storage, device=device)

    @classmethod
    def from_hparams(cls, hp: HParams, num_entries: int, tp_size: int, device="cuda") -> "TargetKVCache":
        dtype = KV_DTYPES[hp.kv_cache_dtype] or hp.act_dtype
        return cls(hp.n_layer, num_entries, divide(hp.n_kv_head, tp_size), hp.head_dim, dtype, device)

    def layer_kv(self, layer: int):
        k, v = self.kv[layer].unbind(0)
        return k.view(self.dtype), v.view(self.dtype)
