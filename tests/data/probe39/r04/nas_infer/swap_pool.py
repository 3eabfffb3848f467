"""Host swap space used when the scheduler preempts running requests."""

import torch

from .pool_base import KVPoolBase


class HostSwapPool(KVPoolBase[torch.Tensor]):
    def __init__(self, arch, capacity, device="cpu"):
        self.device = torch.device(device)
        self.pin = self.device.type == "cpu" and torch.cuda.is_available()
        super().__init__(arch, capacity)

    def _alloc_layer(self, n_kv_heads):
        return torch.empty((self.capacity, n_kv_heads, self.arch.head_dim),
                           dtype=self.arch.dtype, device=self.device,
                           pin_memory=self.pin)

    def bytes_per_token(self):
        per_block = (2 * b.n_kv_heads * self.arch.head_dim
                     for b in self.arch.blocks if b.has_attention)
        return sum(per_block) * self.arch.dtype.itemsize

    def swap_out(self, dev_pool, dev_slots, host_slots):
        for i in self.arch.attention_blocks():
            self.k_layers[i][host_slots] = dev_pool.k_layers[i][dev_slots].to(self.device)
            self.v_layers[i][host_slots] = dev_pool.v_layers[i][dev_slots].to(self.device)

    def swap_in(self, dev_pool, host_slots, dev_slots):
        for i in self.arch.attention_blocks():
            dev_pool.k_layers[i][dev_slots] = self.k_layers[i][host_slots].to(dev_pool.device)
            dev_pool.v_layers[i][dev_slots] = self.v_layers[i][host_slots].to(dev_pool.device)
