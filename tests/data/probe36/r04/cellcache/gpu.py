from .dtypes import CacheDType
from .mixins import LayerStackMixin, QuantScaleMixin


class DeviceCellCache(LayerStackMixin, QuantScaleMixin):
    def __init__(self, n_layer, n_cells, n_heads, head_dim, dtype: CacheDType, scale_group: int, device="cuda"):
        self.n_layer = n_layer
        self.n_cells = n_cells
        self.n_heads = n_heads
        self.head_dim = head_dim
        self.dtype = dtype
        self.scale_group = scale_group
        self.k = self._stack(n_cells, n_heads, head_dim, dtype=dtype.torch_dtype, device=device)
        self.v = self._stack(n_cells, n_heads, head_dim, dtype=dtype.torch_dtype, device=device)
        if dtype.is_quantized:
            self._alloc_scales(device)

    def cell_view(self, layer: int, cells):
        return self.k[layer, cells], self.v[layer, cells]
