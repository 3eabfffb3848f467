"""Write-through DRAM mirror of the arena, replayed after a GPU reset."""
from typing import List, Optional

import torch

from .geometry import ArenaConfig
from .precision import KVPrecision

# (bytes per K/V element, bytes per scale entry) -- scale is 0 when unscaled
_WIRE = {
    KVPrecision.BF16: (2, 0),
    KVPrecision.FP16: (2, 0),
    KVPrecision.FP8_TOKEN: (1, 4),
    KVPrecision.INT8_TOKEN: (1, 4),
}


class DramMirror:
    """Per-layer lists of uint8 rows, one row per slot."""

    def __init__(self, cfg: ArenaConfig, device="cpu"):
        elem, scale = _WIRE[cfg.precision]
        heads = cfg.kv_heads // cfg.tp
        hd = cfg.head_dim if cfg.head_dim is not None else cfg.hidden // cfg.q_heads
        self.slot_count = cfg.mirror_slots
        self.n_layers = cfg.n_layers
        row = heads * hd * elem

        def rows(width: int) -> List[torch.Tensor]:
            return [torch.empty((self.slot_count, width), dtype=torch.uint8, device=device)
                    for _ in range(self.n_layers)]

        self.k = rows(row)
        self.v = rows(row)
        self.k_scale: Optional[List[torch.Tensor]] = rows(heads * scale) if scale else None
        self.v_scale: Optional[List[torch.Tensor]] = rows(heads * scale) if scale else None
        self.dirty: set = set()

    def write_through(self, arena, slots: List[int], mirror_slots: List[int]) -> None:
        src = torch.tensor(slots)
        dst = torch.tensor(mirror_slots)
        for name in ("k", "v", "k_scale", "v_scale"):
            mine = getattr(self, name)
            if mine is None:
                continue
            for layer in range(self.n_layers):
                data = arena.tensors[name][layer, src].reshape(len(slots), -1)
                mine[layer][dst] = data.view(torch.uint8)
        self.dirty.update(mirror_slots)
