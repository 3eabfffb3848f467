import torch

from .utils import _row_bytes


class FullAttnKVShelf:
    """Only global layers own a buffer here; sliding layers use the SWA ring."""

    def __init__(self, config):
        self.config = config
        self.size = config.max_full_tokens
        self.dtype = config.kv_dtype
        self.k_buffer = [None] * config.num_hidden_layers
        self.v_buffer = [None] * config.num_hidden_layers
        for lid in self.layer_ids:
            shape = (self.size + 1, config.num_key_value_heads, config.head_dim)
            self.k_buffer[lid] = torch.empty(shape, dtype=self.dtype, device=config.device)
            self.v_buffer[lid] = torch.empty(shape, dtype=self.dtype, device=config.device)

    @property
    def layer_ids(self):
        return self.config.full_attention_layer_ids

    @property
    def layer_num(self):
        return self.config.num_full_layers

    @property
    def bytes_per_token(self):
        row = _row_bytes(self.dtype, self.config.num_key_value_heads, self.config.head_dim)
        return 2 * row * self.layer_num
