"""CPU tier mirroring HybridWindowPool's global and local slabs."""
from __future__ import annotations

import torch

from .layout import OffloadLayout


class CpuOffloadTier:
    def __init__(self, layout: OffloadLayout, n_global: int, n_local: int,
                 global_rows: int, local_rows: int, device: str = "cpu"):
        self.layout = layout
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()

        def mk(rows: int) -> torch.Tensor:
            return torch.empty(layout.row_shape(rows), dtype=layout.dtype, device=device,
                               pin_memory=pin)

        self.global_k = [mk(global_rows) for _ in range(n_global)]
        self.global_v = [mk(global_rows) for _ in range(n_global)]
        self.local_k = [mk(local_rows) for _ in range(n_local)]
        self.local_v = [mk(local_rows) for _ in range(n_local)]
