import torch

from .base import DATA_DTYPE, SCALE_DTYPE, QuantKVDepotBase


class Int8KVDepot(QuantKVDepotBase):
    def __init__(self, cfg):
        super().__init__(
            cfg.max_tokens + 1, cfg.num_kv_heads, cfg.head_dim, cfg.num_layers, cfg.device
        )

    def _create_buffers(self):
        dshape = (self.size, self.head_num, self.head_dim)
        sshape = (self.size, self.head_num)
        self.k_data = [torch.empty(dshape, dtype=DATA_DTYPE, device=self.device) for _ in range(self.layer_num)]
        self.v_data = [torch.empty(dshape, dtype=DATA_DTYPE, device=self.device) for _ in range(self.layer_num)]
        self.k_scale = [torch.empty(sshape, dtype=SCALE_DTYPE, device=self.device) for _ in range(self.layer_num)]
        self.v_scale = [torch.empty(sshape, dtype=SCALE_DTYPE, device=self.device) for _ in range(self.layer_num)]
