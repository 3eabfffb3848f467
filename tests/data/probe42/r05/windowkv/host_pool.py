import torch

from .utils import _row_bytes


class HostShelfMirror:
    """Flat byte-addressed host copy of the full-attention shelf."""

    def __init__(self, config, device_shelf):
        self.config = config
        self.device_shelf = device_shelf
        self.size = config.host_tokens
        row = _row_bytes(self.dtype, config.num_key_value_heads, config.head_dim)
        self.k_buffer = torch.empty((self.size, self.layer_num * row), dtype=torch.uint8,
                                    device=config.host_device)
        self.v_buffer = torch.empty((self.size, self.layer_num * row), dtype=torch.uint8,
                                    device=config.host_device)

    @property
    def dtype(self):
        return self.device_shelf.dtype

    @property
    def layer_num(self):
        return self.config.num_hidden_layers

    @property
    def bytes_per_token(self):
        return self.k_buffer.shape[1] + self.v_buffer.shape[1]
