"""Paged KV cache manager: one pool per group of layers sharing num_kv_heads.

Pool layout follows the TRT-LLM kernels:
    [max_blocks, num_layers_in_group, 2, num_kv_heads * tokens_per_block * head_size]
"""
from collections import OrderedDict
from dataclasses import dataclass
from typing import List

import torch

from .dtypes import dtype_size, str_dtype_to_torch


@dataclass
class LayerGroup:
    num_kv_heads: int
    layer_ids: List[int]

    @property
    def num_layers(self) -> int:
        return len(self.layer_ids)


def group_layers(num_kv_heads_per_layer: List[int]) -> List[LayerGroup]:
    groups: "OrderedDict[int, LayerGroup]" = OrderedDict()
    for layer_idx, nkv in enumerate(num_kv_heads_per_layer):
        groups.setdefault(nkv, LayerGroup(nkv, [])).layer_ids.append(layer_idx)
    return list(groups.values())


class KVCacheManager:

    def __init__(self, config, tokens_per_block: int, max_blocks: int,
                 device: str = "cuda"):
        self.tokens_per_block = tokens_per_block
        self.max_blocks = max_blocks
        self.head_size = config.head_size
        self.dtype = str_dtype_to_torch(config.kv_dtype)
        self.layer_groups = group_layers(config.num_kv_heads_per_layer())
        self.pools: List[torch.Tensor] = []
        for group in self.layer_groups:
            self.pools.append(
                torch.empty(max_blocks, group.num_layers, 2,
                            group.num_kv_heads * tokens_per_block * self.head_size,
                            dtype=self.dtype, device=device))
        self.free_blocks = list(range(max_blocks))

    def bytes_per_block(self) -> int:
        total = 0
        for group in self.layer_groups:
            total += (group.num_layers * 2 * group.num_kv_heads *
                      self.tokens_per_block * self.head_size)
        return total * dtype_size(self.dtype)

    @property
    def num_tokens(self) -> int:
        return self.max_blocks * self.tokens_per_block

    def get_block_pointers(self, block_ids: List[int]):
        return [[pool[b] for b in block_ids] for pool in self.pools]
