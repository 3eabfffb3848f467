from typing import Dict, Sequence

import torch

from mlc_serve.kv.registry import PagedKVCacheSpec, register_kv_cache


@register_kv_cache("draft")
class DraftKVCache:
    """Self-speculative draft cache: the draft pass runs only a prefix of the target's layers."""

    def __init__(self, spec: PagedKVCacheSpec, num_pages: int, layer_ids: Sequence[int], device):
        self.spec = spec
        self.num_pages = num_pages
        self.page_size = spec.page_size
        self.layer_ids = list(layer_ids)
        self.caches: Dict[int, torch.Tensor] = {
            lid: torch.zeros(spec.page_shape(num_pages), dtype=spec.torch_dtype, device=device)
            for lid in self.layer_ids
        }

    @property
    def capacity(self) -> int:
        return self.num_pages * self.page_size

    @classmethod
    def from_target(cls, target, exit_layer: int, draft_pages: int, device):
        return cls(target.spec, draft_pages, range(exit_layer), device)
