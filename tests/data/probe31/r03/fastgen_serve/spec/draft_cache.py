from typing import List, Optional

import torch

from fastgen_serve.ragged.kv_cache import BlockedKVCache


class DraftKVCache:
    """KV storage for an EAGLE-style draft head.

    The draft head is a single decoder layer that reuses the target model's
    attention geometry, so its cache is carved with the target group's
    block, head and dtype layout but with its own layer and block counts.
    """

    def __init__(
        self,
        target: BlockedKVCache,
        num_draft_layers: int = 1,
        num_blocks: Optional[int] = None,
        cache_group: int = 0,
    ):
        base = target.group(cache_group)
        self.block_size = base.shape[2]
        self.num_blocks = base.shape[1] if num_blocks is None else num_blocks
        self._caches: List[torch.Tensor] = [
            base.new_empty((num_draft_layers, self.num_blocks) + tuple(base.shape[2:]))
        ]

    def get_cache(self, cache_id: int = 0) -> torch.Tensor:
        return self._caches[0][cache_id]

    def keys(self, cache_id: int = 0) -> torch.Tensor:
        return self.get_cache(cache_id).select(2, 0)

    def values(self, cache_id: int = 0) -> torch.Tensor:
        return self.get_cache(cache_id).select(2, 1)
