from dataclasses import dataclass
from typing import Optional

import torch


@dataclass(frozen=True)
class KVLayout:
    num_layers: int = 4
    num_kv_heads: int = 16
    qk_head_dim: int = 192
    value_head_size: Optional[int] = 128
    tp_size: int = 4
    tokens_per_block: int = 64
    kv_dtype: torch.dtype = torch.bfloat16

    @property
    def kv_heads_this_rank(self) -> int:
        return self.num_kv_heads // self.tp_size

    @property
    def v_head_dim(self) -> int:
        return self.value_head_size or self.qk_head_dim

    @property
    def bytes_per_elem(self) -> int:
        return torch.empty((), dtype=self.kv_dtype, device="meta").element_size()
