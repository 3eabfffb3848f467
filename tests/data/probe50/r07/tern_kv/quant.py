"""Grouped int8 KV quantization: each head vector is split into groups of
`group_size` elements; each group carries an fp16 scale and an fp16 zero point."""
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class QuantScheme:
    bits: int = 8
    group_size: int = 64
    asymmetric: bool = True
    param_dtype: torch.dtype = torch.float16

    @property
    def code_dtype(self):
        return torch.int8 if self.bits == 8 else torch.uint8

    @property
    def params_per_group(self):
        return 2 if self.asymmetric else 1

    def num_groups(self, head_dim):
        if head_dim % self.group_size:
            raise ValueError(f"head_dim {head_dim} not a multiple of group {self.group_size}")
        return head_dim // self.group_size


SCHEMES = {
    "int8_g64_asym": QuantScheme(8, 64, True),
    "int8_g128_sym": QuantScheme(8, 128, False),
    "int8_g32_asym": QuantScheme(8, 32, True),
}
