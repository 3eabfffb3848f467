from typing import Protocol, Sequence

import torch


class LayerKVStore(Protocol):
    """Anything that exposes one interleaved KV tensor per layer."""

    n_kv_heads: int
    head_dim: int

    @property
    def cache_kv(self) -> Sequence[torch.Tensor]:
        ...

    def capacity(self, layer_id: int) -> int:
        ...
