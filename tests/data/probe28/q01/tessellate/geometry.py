from dataclasses import dataclass
from typing import Optional

import torch


@dataclass(frozen=True)
class AttnGeometry:
    layers: int = 4
    kv_heads: int = 8
    head_width: int = 128
    v_dim: Optional[int] = None
    tp_degree: int = 2
    dtype: torch.dtype = torch.bfloat16
    page_tokens: int = 16

    @property
    def heads_per_rank(self) -> int:
        return max(1, self.kv_heads // self.tp_degree)

    @property
    def value_dim(self) -> int:
        return self.head_width if self.v_dim is None else self.v_dim

    @property
    def elem_size(self) -> int:
        return torch.empty((), dtype=self.dtype, device="meta").element_size()
