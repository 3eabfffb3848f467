import torch

from .spec import buffer_layout


class LatentKVCache:
    """Compressed-KV cache on device: c_kv latent plus decoupled rope key."""

    def __init__(self, spec):
        self.spec = spec
        dtype, shape = buffer_layout(spec, "latent")
        self.ckv = torch.empty(shape, dtype=dtype, device=spec.device)
        dtype, shape = buffer_layout(spec, "rope")
        self.kpe = torch.empty(shape, dtype=dtype, device=spec.device)

    def get_layer(self, layer_id):
        return self.ckv[layer_id], self.kpe[layer_id]

    def set_layer(self, layer_id, loc, c_kv, k_pe):
        self.ckv[layer_id, loc] = c_kv
        self.kpe[layer_id, loc] = k_pe
