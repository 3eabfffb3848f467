import math
from typing import List, Sequence

import torch
from torch import Tensor

from swa_research.cache.protocols import LayerKVStore


class CPUSpillArea:
    """Host bytes that keep positions evicted from the rotating buffers.

    One flat row per spilled token per layer, wide enough to hold that
    token's interleaved K/V for every KV head.
    """

    __slots__ = ("row_bytes", "spill_tokens", "_cache_kv", "_cursor")

    def __init__(self, store: LayerKVStore, spill_tokens: int = 256):
        self.spill_tokens = spill_tokens
        self.row_bytes: List[int] = []
        self._cache_kv: List[Tensor] = []
        for t in store.cache_kv:
            row = t.element_size() * math.prod(t.shape[2:])
            self.row_bytes.append(row)
            self._cache_kv.append(torch.empty((spill_tokens, row), dtype=torch.uint8, device="cpu"))
        self._cursor = [0] * len(self._cache_kv)

    @property
    def cache_kv(self) -> Sequence[Tensor]:
        return self._cache_kv

    def spill(self, layer_id: int, store: LayerKVStore, batch_idx: int, slots: Tensor) -> Tensor:
        src = store.cache_kv[layer_id][batch_idx, slots]
        rows = src.reshape(src.shape[0], -1).view(torch.uint8)
        n = rows.shape[0]
        start = self._cursor[layer_id] % self.spill_tokens
        idx = (torch.arange(n) + start) % self.spill_tokens
        self._cache_kv[layer_id][idx] = rows.to("cpu")
        self._cursor[layer_id] += n
        return idx

    def restore(self, layer_id: int, idx: Tensor, like: Tensor) -> Tensor:
        rows = self._cache_kv[layer_id][idx]
        return rows.to(like.device).view(like.dtype).view(len(idx), *like.shape[2:])
