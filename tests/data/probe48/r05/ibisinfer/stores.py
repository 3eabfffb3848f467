"""GPU KV store plus vision-embedding cache, and the CPU swap space mirroring it."""
from __future__ import annotations

import torch

from .formats import CacheFormat


class GpuKVStore:
    """Per-layer K/V slot tensors and an encoder cache of vision embeddings.

    ``key_cache``/``value_cache`` are tuples with one ``(num_slots, kv_heads, head_dim)``
    tensor per layer. ``vision_embeds`` caches merged vision-tower outputs, one row
    of ``embed_dim`` per image token, so re-prefills skip the encoder.
    """

    def __init__(self, fmt: type[CacheFormat], num_slots: int, num_layers: int, kv_heads: int,
                 head_dim: int, mm_slots: int, embed_dim: int, embed_dtype: torch.dtype,
                 device: str = "cuda") -> None:
        self.fmt = fmt
        self.num_slots = num_slots
        self.num_layers = num_layers
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.embed_dim = embed_dim
        self.embed_dtype = embed_dtype
        shape = (num_slots, kv_heads, head_dim)
        self.key_cache = tuple(torch.empty(shape, dtype=fmt.storage, device=device)
                               for _ in range(num_layers))
        self.value_cache = tuple(torch.empty(shape, dtype=fmt.storage, device=device)
                                 for _ in range(num_layers))
        self.vision_embeds = torch.empty((mm_slots, embed_dim), dtype=embed_dtype, device=device)

    @property
    def kv_bytes_per_token(self) -> int:
        return 2 * self.num_layers * self.kv_heads * self.head_dim * self.fmt.storage.itemsize


class SwapSpace:
    """CPU swap for preempted requests.

    Each layer is one flat buffer of ``num_slots * token_elems`` elements, so a
    request's K and V for that layer swap out with a single gather; ``key_cache``
    and ``value_cache`` are strided views into it.
    """

    def __init__(self, gpu: GpuKVStore, num_slots: int, mm_slots: int,
                 device: str = "cpu") -> None:
        self.gpu = gpu
        self.num_slots = num_slots
        flats = tuple(torch.empty(num_slots * self.token_elems, dtype=gpu.fmt.storage, device=device)
                      for _ in range(gpu.num_layers))
        shaped = [f.view(num_slots, 2, gpu.kv_heads, gpu.head_dim) for f in flats]
        self.flat = flats
        self.key_cache = tuple(s[:, 0] for s in shaped)
        self.value_cache = tuple(s[:, 1] for s in shaped)
        self.vision_embeds = torch.empty((mm_slots, gpu.embed_dim), dtype=gpu.embed_dtype,
                                         device=device)

    @property
    def token_elems(self) -> int:
        """K plus V elements of one token in one layer."""
        return 2 * self.gpu.kv_heads * self.gpu.head_dim

    @property
    def bytes_per_token(self) -> int:
        return self.gpu.num_layers * self.token_elems * self.gpu.fmt.storage.itemsize
