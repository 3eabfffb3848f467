from typing import List

import torch

from fastlane.inference.config_v2 import KVGroupSpec, MemoryConfig


def block_bytes(spec: KVGroupSpec) -> int:
    layers, heads, head_size = spec.cache_shape
    elem = torch.finfo(spec.cache_dtype).bits // 8
    return layers * spec.block_size * 2 * heads * head_size * elem


class BlockedKVStore:
    """Ragged-batching KV store: per allocation group, one tensor
    [num_blocks, num_layers, block_size, 2, kv_heads, head_size]."""

    def __init__(self, specs: List[KVGroupSpec], memory: MemoryConfig, device="cuda"):
        if memory.mode != "allocate":
            raise NotImplementedError("only 'allocate' mode is supported in this build")
        per_block = sum(block_bytes(s) for s in specs)
        self.num_blocks = memory.size // per_block
        self.specs = specs
        self.caches: List[torch.Tensor] = []
        for s in specs:
            layers, heads, head_size = s.cache_shape
            shape = (self.num_blocks, layers, s.block_size, 2, heads, head_size)
            self.caches.append(torch.empty(shape, dtype=s.cache_dtype, device=device))

    def get_cache(self, layer: int, group: int = 0) -> torch.Tensor:
        return self.caches[group][:, layer]
