import torch

from .dtypes import SCALE_DTYPE


class LayerStackMixin:
    """Allocates one tensor per quantity with a leading layer axis."""

    def _stack(self, *shape, dtype, device, pin=False):
        return torch.zeros((self.n_layer, *shape), dtype=dtype, device=device, pin_memory=pin)


class QuantScaleMixin:
    """Per-cell, per-head group scales for a quantized K/V cache."""

    scale_group: int = 128

    def _alloc_scales(self, device, pin=False):
        groups = self.head_dim // self.scale_group
        self.k_scale = self._stack(self.n_cells, self.n_heads, groups, dtype=SCALE_DTYPE, device=device, pin=pin)
        self.v_scale = self._stack(self.n_cells, self.n_heads, groups, dtype=SCALE_DTYPE, device=device, pin=pin)

    @property
    def scale_bytes(self) -> int:
        return self.k_scale.nbytes + self.v_scale.nbytes
