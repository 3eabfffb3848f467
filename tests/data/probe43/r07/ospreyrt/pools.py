import torch

from .dtypes import elem_bytes, to_torch
from .model_cfg import AttnSpec, PagingSpec


class LatentCacheDevice:
    __slots__ = ("spec", "paging", "dtype", "latent_kv")

    def __init__(self, spec: AttnSpec, paging: PagingSpec):
        self.spec = spec
        self.paging = paging
        self.dtype = to_torch(spec.kv_dtype)
        slots = paging.device_pages * paging.page_size
        last = spec.kv_lora_rank + spec.qk_rope_head_dim
        self.latent_kv = torch.zeros(
            (spec.n_layer, slots, 1, last), dtype=self.dtype, device=paging.device
        )

    def nope_part(self, layer):
        return self.latent_kv[layer, ..., : self.spec.kv_lora_rank]

    def rope_part(self, layer):
        return self.latent_kv[layer, ..., self.spec.kv_lora_rank :]


class HeadCacheDevice:
    __slots__ = ("spec", "paging", "k", "v")

    def __init__(self, spec: AttnSpec, paging: PagingSpec):
        self.spec = spec
        self.paging = paging
        slots = paging.device_pages * paging.page_size
        shape = (spec.n_layer, slots, spec.n_kv_head, spec.head_dim)
        self.k = torch.zeros(shape, dtype=to_torch(spec.kv_dtype), device=paging.device)
        self.v = torch.zeros_like(self.k)


class PageMajorHostCache:
    """Host pages laid out page-major: all layers of a page are contiguous,
    so one page is a single DMA of page_size * page_row bytes."""

    def __init__(self, spec: AttnSpec, paging: PagingSpec):
        self.spec = spec
        self.paging = paging
        if spec.arch == "mla":
            self.token_row = spec.mla_token_width * elem_bytes(spec.kv_dtype)
        else:
            self.token_row = 2 * spec.n_kv_head * spec.head_dim * elem_bytes(spec.kv_dtype)
        self.pages = torch.empty(
            (paging.host_pages, spec.n_layer, paging.page_size, self.token_row),
            dtype=torch.uint8,
            device=paging.host,
        )

    @property
    def page_bytes(self) -> int:
        return self.pages[0].numel()
