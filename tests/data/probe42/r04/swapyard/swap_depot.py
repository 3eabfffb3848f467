import torch

from .base import DATA_DTYPE, QuantKVDepotBase


class PinnedSwapDepot(QuantKVDepotBase):
    """Swap space for preempted sequences; scales travel with the int8 payload."""

    def __init__(self, cfg):
        self.pin_memory = cfg.pin_memory
        super().__init__(
            cfg.swap_space_tokens, cfg.num_kv_heads, cfg.head_dim, cfg.num_layers, cfg.swap_device
        )

    def _alloc(self, shape, dtype):
        return torch.empty(shape, dtype=dtype, device=self.device, pin_memory=self.pin_memory)

    def _create_buffers(self):
        dshape = (self.layer_num, self.size, self.head_num, self.head_dim)
        sshape = (self.layer_num, self.size, self.head_num)
        self.k_data = self._alloc(dshape, DATA_DTYPE)
        self.v_data = self._alloc(dshape, DATA_DTYPE)
        self.k_scale = self._alloc(sshape, torch.float32)
        self.v_scale = self._alloc(sshape, torch.float32)

    def swap_out(self, dev, dev_idx, swap_idx):
        for i in range(self.layer_num):
            self.k_data[i, swap_idx] = dev.k_data[i][dev_idx]
            self.v_data[i, swap_idx] = dev.v_data[i][dev_idx]
            self.k_scale[i, swap_idx] = dev.k_scale[i][dev_idx]
            self.v_scale[i, swap_idx] = dev.v_scale[i][dev_idx]
