from dataclasses import dataclass, field
from typing import Optional

import torch


@dataclass
class QuantKVConfig:
    n_layers: int = 3
    n_kv_heads: int = 8
    key_width: int = 64
    value_width: Optional[int] = None
    tp_world: int = 2
    quant_dtype: torch.dtype = torch.int8
    scale_torch_dtype: torch.dtype = field(default=torch.float32)

    @property
    def local_kv_heads(self) -> int:
        return self.n_kv_heads // self.tp_world

    @property
    def resolved_value_width(self) -> int:
        return self.key_width if self.value_width is None else self.value_width

    @property
    def kv_elem_bytes(self) -> int:
        return torch.empty((), dtype=self.quant_dtype, device="meta").element_size()

    @property
    def scale_elem_bytes(self) -> int:
        return torch.empty((), dtype=self.scale_torch_dtype, device="meta").element_size()
