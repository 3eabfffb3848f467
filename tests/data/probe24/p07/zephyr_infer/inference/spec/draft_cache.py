import dataclasses

import torch

from zephyr_infer.inference.config import KVCacheConfig
from zephyr_infer.inference.ragged.kv_cache import BlockedKVCache


class DraftKVCache(BlockedKVCache):
    """KV cache of the single-layer EAGLE head.

    The draft layer attends with the target's head geometry, so only the number
    of layers and blocks change; everything else is inherited from the target's
    KVCacheConfig.
    """

    def __init__(self, target_config: KVCacheConfig, num_layers: int, num_blocks: int,
                 device: str = "cuda") -> None:
        cfg = dataclasses.replace(target_config, num_allocation_groups=num_layers,
                                  max_blocks=num_blocks)
        super().__init__(cfg, device=device)
