from dataclasses import dataclass

from .dtypes import CacheDType
from .mixins import LayerStackMixin, QuantScaleMixin


@dataclass
class OffloadConfig:
    n_cells: int
    dtype: CacheDType = CacheDType.BF16
    scale_group: int = 64
    pin: bool = True


class OffloadCellStore(LayerStackMixin, QuantScaleMixin):
    """Host-memory tier that cold cells are evicted to before disk."""

    def __init__(self, cfg: OffloadConfig, n_layer: int, n_heads: int, head_dim: int, device: str = "cpu"):
        self.cfg = cfg
        self.n_layer = n_layer
        self.n_cells = cfg.n_cells
        self.n_heads = n_heads
        self.head_dim = head_dim
        self.scale_group = cfg.scale_group
        dt = cfg.dtype.torch_dtype
        self.k = self._stack(self.n_cells, n_heads, head_dim, dtype=dt, device=device, pin=cfg.pin)
        self.v = self._stack(self.n_cells, n_heads, head_dim, dtype=dt, device=device, pin=cfg.pin)
        if cfg.dtype.is_quantized:
            self._alloc_scales(device, pin=cfg.pin)

    def write_back(self, dev, src_cells, dst_cells):
        for name in ("k", "v", "k_scale", "v_scale"):
            if hasattr(self, name):
                getattr(self, name)[:, dst_cells] = getattr(dev, name)[:, src_cells].to(self.k.device)
