"""Per-layer KV cache specs. All specs of one engine share a page size."""
from dataclasses import dataclass
from typing import List, Optional

import torch

from lumen.config import EngineSettings, resolve_cache_dtype


@dataclass(frozen=True)
class AttnLayerSpec:
    block_size: int
    num_kv_heads: int
    head_size: int
    dtype: torch.dtype
    sliding_window: Optional[int] = None

    @property
    def page_size_bytes(self) -> int:
        elem = torch.empty((), dtype=self.dtype, device="meta").element_size()
        return 2 * self.block_size * self.num_kv_heads * self.head_size * elem


def kv_heads_per_rank(settings: EngineSettings) -> int:
    tp = settings.parallel.tensor_parallel_size
    return max(1, settings.model.num_key_value_heads // tp)


def layer_specs(settings: EngineSettings) -> List[AttnLayerSpec]:
    m, c = settings.model, settings.cache
    dtype = resolve_cache_dtype(c.cache_dtype, m.dtype)
    specs = []
    for i in range(m.num_hidden_layers):
        window = m.sliding_window if i % m.sliding_window_pattern == 0 else None
        specs.append(AttnLayerSpec(c.block_size, kv_heads_per_rank(settings),
                                   m.head_dim, dtype, window))
    return specs
