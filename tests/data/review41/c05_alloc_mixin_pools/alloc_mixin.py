import torch


class LayeredAllocMixin:
    def _empty(self, shape, dtype):
        return torch.empty(shape, dtype=dtype, device=self.device)

    def _create_buffers(self):
        self.k = []
        self.v = []
        for _ in range(self.n_layers):
            self.k.append(self._empty((self.num_slots, self.n_kv_heads, self.head_size), self.dtype))
            self.v.append(self._empty((self.num_slots, self.n_kv_heads, self.head_size), self.dtype))
