from typing import List

import torch

from exlv.cache.variants import get_variant
from exlv.config import ModelDims


class QuantContextCache:
    """Contiguous per-layer cache, [batch, max_seq_len, packed row] plus group scales."""

    def __init__(self, dims: ModelDims, variant: str = "q4", batch_size: int = 1,
                 max_seq_len: int = -1, device="cuda"):
        self.dims = dims
        self.variant = get_variant(variant)
        self.batch_size = batch_size
        self.max_seq_len = dims.max_seq_len if max_seq_len < 0 else max_seq_len
        self.num_layers = dims.num_hidden_layers
        self.key_states: List[torch.Tensor] = []
        self.value_states: List[torch.Tensor] = []
        self.key_scales: List[torch.Tensor] = []
        self.value_scales: List[torch.Tensor] = []
        args = (batch_size, self.max_seq_len, dims.num_key_value_heads, dims.head_dim)
        for _ in range(self.num_layers):
            shape, dtype = self.variant.state_shape(*args)
            self.key_states.append(torch.zeros(shape, dtype=dtype, device=device))
            self.value_states.append(torch.zeros(shape, dtype=dtype, device=device))
            if self.variant.quantized:
                sshape, sdtype = self.variant.scale_shape(*args)
                self.key_scales.append(torch.zeros(sshape, dtype=sdtype, device=device))
                self.value_scales.append(torch.zeros(sshape, dtype=sdtype, device=device))
