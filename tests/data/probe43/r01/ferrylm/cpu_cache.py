import torch


class PinnedKVShadow:
    """Host copy of the device cache, allocated layer by layer.

    Geometry is copied from the live device cache so the two can never
    disagree about head counts or dtype.
    """

    def __init__(self, heads, width, dtype, layers, slots, where="cpu"):
        self.heads = heads
        self.width = width
        self.dtype = dtype
        self.slots = slots
        self.where = where
        self.k_layers = []
        self.v_layers = []
        for _ in range(layers):
            self.k_layers.append(self._alloc())
            self.v_layers.append(self._alloc())

    def _alloc(self):
        return torch.zeros(
            (self.slots, self.heads, self.width), dtype=self.dtype, device=self.where
        )

    @classmethod
    def mirror_of(cls, gpu_cache, ratio, where="cpu"):
        slots = int(gpu_cache.settings.token_capacity * ratio)
        return cls(
            heads=gpu_cache.local_heads,
            width=gpu_cache.head_width,
            dtype=gpu_cache.k_cache.dtype,
            layers=gpu_cache.k_cache.shape[0],
            slots=slots,
            where=where,
        )

    def copy_in(self, layer, src_idx, dst_idx, gpu_cache):
        k, v = gpu_cache.layer_view(layer)
        self.k_layers[layer][dst_idx] = k[src_idx].to(self.where)
        self.v_layers[layer][dst_idx] = v[src_idx].to(self.where)
