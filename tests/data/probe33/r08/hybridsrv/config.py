"""Hybrid attention configuration; derived quantities are exposed as properties."""

import math
from dataclasses import dataclass
from enum import Enum

import torch


class LayerKind(str, Enum):
    FULL = "full_attention"
    SLIDING = "sliding_attention"


@dataclass
class HybridConfig:
    num_layers: int = 26
    full_every: int = 6
    sliding_window: int = 1024
    max_running_requests: int = 64
    max_total_tokens: int = 131072
    page_size: int = 16
    full_kv_heads: int = 4
    full_head_dim: int = 256
    swa_kv_heads: int = 4
    swa_head_dim: int = 128
    dtype: str = "bfloat16"

    @property
    def layer_types(self):
        return [LayerKind.FULL if (i + 1) % self.full_every == 0 else LayerKind.SLIDING
                for i in range(self.num_layers)]

    @property
    def full_layer_ids(self):
        return [i for i, k in enumerate(self.layer_types) if k is LayerKind.FULL]

    @property
    def swa_layer_ids(self):
        return [i for i, k in enumerate(self.layer_types) if k is LayerKind.SLIDING]

    @property
    def full_num_pages(self):
        return self.max_total_tokens // self.page_size

    @property
    def swa_num_pages(self):
        """Each running request keeps at most window + one partial page of sliding KV."""
        per_req = math.ceil(self.sliding_window / self.page_size) + 1
        return per_req * self.max_running_requests

    @property
    def torch_dtype(self):
        return getattr(torch, self.dtype)
