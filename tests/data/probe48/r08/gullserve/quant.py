"""KV quantisation settings shared by prefill and decode workers."""
from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class KVQuantConfig:
    """Symmetric int8 K/V with fp16 scales over contiguous head_dim groups.

    K and V have separate group sizes so the K side can be tuned for outlier
    channels independently of V.
    """

    k_group: int = 64
    v_group: int = 32
    storage: torch.dtype = torch.int8
    scale_dtype: torch.dtype = torch.float16

    def groups(self, head_dim: int, group: int) -> int:
        n, rem = divmod(head_dim, group)
        if rem:
            raise ValueError(f"group {group} does not divide head_dim {head_dim}")
        return n
