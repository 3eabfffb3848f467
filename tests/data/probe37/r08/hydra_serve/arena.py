"""HBM KV arena: flat slots, all layers stacked."""
from typing import Dict, List, Tuple

import torch

from .geometry import ArenaConfig, GeometryMixin
from .precision import SCALE_DTYPE


class HbmKVArena(GeometryMixin):
    """Buffers live in ``self.tensors`` keyed by name, each [n_layers, slots, ...]."""

    def __init__(self, cfg: ArenaConfig, device="cuda"):
        self.cfg = cfg
        self.slots = cfg.slots
        self.n_layers = cfg.n_layers
        self.tensors: Dict[str, torch.Tensor] = {
            name: torch.empty(shape, dtype=dt, device=device)
            for name, (shape, dt) in self.buffer_specs().items()
        }
        self._free: List[int] = list(range(self.slots))

    def buffer_specs(self) -> Dict[str, Tuple[Tuple[int, ...], torch.dtype]]:
        p = self.cfg.precision
        lead = (self.n_layers, self.slots)
        specs = {
            "k": (lead + self.token_shape, p.element_dtype),
            "v": (lead + self.token_shape, p.element_dtype),
        }
        if p.scaled:
            specs["k_scale"] = (lead + (self.heads_local,), SCALE_DTYPE)
            specs["v_scale"] = (lead + (self.heads_local,), SCALE_DTYPE)
        return specs

    def alloc(self, n: int) -> List[int]:
        if n > len(self._free):
            raise RuntimeError("arena exhausted")
        out, self._free = self._free[:n], self._free[n:]
        return out

    def free(self, slots: List[int]) -> None:
        self._free.extend(slots)

    def bytes_in_use(self) -> int:
        used = self.slots - len(self._free)
        return sum(t[:, :used].nbytes for t in self.tensors.values())
