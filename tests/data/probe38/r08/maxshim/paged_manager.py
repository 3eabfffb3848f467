"""Paged KV manager.  The concrete pool class is produced by a factory keyed on
the cache strategy, mirroring how the graph compiler picks a kernel family."""
import torch

from .dtype import DType
from .kv_params import KVCacheParams


def paged_cache_cls(strategy: str):
    if strategy != "paged":
        raise NotImplementedError(strategy)

    class PagedKVBlocks:
        """blocks:  [num_pages, 2, num_layers, page_size, heads, head_dim]  (fp8)
        scales:  [num_pages, 2, num_layers, page_size, heads]            (fp32, per token/head)"""

        def __init__(self, params: KVCacheParams, device="cpu"):
            self.params = params
            heads = params.n_kv_heads_per_device
            per_page = 2 * params.num_layers * params.page_size * heads * (
                params.head_dim * params.dtype.size_in_bytes + params.scale_dtype.size_in_bytes)
            self.num_pages = params.device_memory_bytes // per_page
            base = [self.num_pages, 2, params.num_layers, params.page_size, heads]
            self.blocks = torch.empty(base + [params.head_dim],
                                      dtype=params.dtype.to_torch(), device=device)
            self.scales = torch.ones(base, dtype=params.scale_dtype.to_torch(), device=device)

        @property
        def total_tokens(self) -> int:
            return self.num_pages * self.params.page_size

    PagedKVBlocks.__qualname__ = "PagedKVBlocks"
    return PagedKVBlocks


class PagedKVCacheManager:
    """Request-level front end: assigns pages to requests and tracks lengths."""

    def __init__(self, params: KVCacheParams, device="cpu"):
        self.params = params
        self.pool = paged_cache_cls(params.cache_strategy)(params, device=device)
        self._free_pages = list(range(self.pool.num_pages))
        self._pages = {}
        self._lengths = {}

    def claim(self, request_id: str) -> None:
        if request_id in self._pages:
            raise ValueError(f"{request_id} already claimed")
        self._pages[request_id] = []
        self._lengths[request_id] = 0

    def step(self, request_id: str, num_new_tokens: int):
        ps = self.params.page_size
        length = self._lengths[request_id] + num_new_tokens
        pages = self._pages[request_id]
        while len(pages) * ps < length:
            if not self._free_pages:
                raise MemoryError("out of KV pages")
            pages.append(self._free_pages.pop())
        self._lengths[request_id] = length
        return pages

    def release(self, request_id: str) -> None:
        self._free_pages.extend(self._pages.pop(request_id))
        self._lengths.pop(request_id)

    def max_dtype_bytes(self) -> int:
        return max(self.params.dtype.size_in_bytes, DType.float32.size_in_bytes)
