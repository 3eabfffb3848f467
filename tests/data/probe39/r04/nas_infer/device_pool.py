"""Token-slot KV pool in device memory."""

import torch

from .pool_base import KVPoolBase


class NASDevicePool(KVPoolBase[torch.Tensor]):
    def __init__(self, arch, capacity, device="cuda"):
        self.device = torch.device(device)
        super().__init__(arch, capacity)
        self._free = torch.arange(capacity, dtype=torch.int64)
        self._head = 0

    def _alloc_layer(self, n_kv_heads):
        return torch.empty((self.capacity, n_kv_heads, self.arch.head_dim),
                           dtype=self.arch.dtype, device=self.device)

    def bytes_per_token(self):
        item = self.arch.dtype.itemsize
        return sum(2 * b.n_kv_heads * self.arch.head_dim * item
                   for b in self.arch.blocks if b.has_attention)

    def alloc(self, n):
        if self._head + n > self.capacity:
            return None
        out = self._free[self._head: self._head + n]
        self._head += n
        return out

    def store(self, idx, slots, k, v):
        self.k_layers[idx][slots] = k
        self.v_layers[idx][slots] = v
