import torch
from torch import nn

from gullkv.dtypes import SCALE_DTYPE, is_scaled, resolve_kv_dtype


class GpuKVPool(nn.Module):
    """Token-indexed KV pool in HBM.  Slot 0 is reserved as the padding slot."""

    def __init__(self, card, size, kv_cache_dtype="auto", tp_size=1, device="cuda"):
        super().__init__()
        self.card = card
        self.size = size
        self.kv_cache_dtype = kv_cache_dtype
        self.head_num = card.kv_heads_per_rank(tp_size)
        self.head_dim = card.head_dim
        self.layer_num = card.num_layers
        self.dtype = resolve_kv_dtype(kv_cache_dtype, card.torch_dtype)
        self.device = device
        self._alloc()

    def _alloc(self):
        shape = (self.size + 1, self.head_num, self.head_dim)
        self.k_buffer = [torch.empty(shape, dtype=self.dtype, device=self.device)
                         for _ in range(self.layer_num)]
        self.v_buffer = [torch.empty(shape, dtype=self.dtype, device=self.device)
                         for _ in range(self.layer_num)]
        if is_scaled(self.kv_cache_dtype):
            sshape = (self.size + 1, self.head_num)
            self.k_scale = [torch.ones(sshape, dtype=SCALE_DTYPE, device=self.device)
                            for _ in range(self.layer_num)]
            self.v_scale = [torch.ones(sshape, dtype=SCALE_DTYPE, device=self.device)
                            for _ in range(self.layer_num)]
        else:
            self.k_scale = self.v_scale = None

    def get_kv_buffer(self, layer_id):
        return self.k_buffer[layer_id], self.v_buffer[layer_id]

    def set_kv_buffer(self, layer_id, loc, k, v, k_scale=None, v_scale=None):
        self.k_buffer[layer_id][loc] = k.to(self.dtype)
        self.v_buffer[layer_id][loc] = v.to(self.dtype)
        if self.k_scale is not None:
            self.k_scale[layer_id][loc] = k_scale
            self.v_scale[layer_id][loc] = v_scale
