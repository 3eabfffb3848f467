import torch

from tern_kv.quant import SCHEMES

GIB = 1024 ** 3
_FP16_BYTES = 2


class QuantOffloadTier:
    """Token-major CPU tier: one row per token holding every layer's K and V.

    Codes and quant params go to separate row tensors so that the codes can be
    streamed back without touching the params when a prefix is only probed.
    """

    def __init__(self, num_layers, kv_heads, head_dim, kv_quant, budget_gib, device="cpu"):
        scheme = SCHEMES[kv_quant]
        groups = head_dim // scheme.group_size
        self.code_row = num_layers * 2 * kv_heads * head_dim * (scheme.bits // 8)
        # one fp16 scale per group
        self.param_row = num_layers * 2 * kv_heads * groups * _FP16_BYTES
        self.capacity = int(budget_gib * GIB) // (self.code_row + self.param_row)
        pin = device == "cpu"
        self.codes = torch.empty((self.capacity, self.code_row), dtype=torch.uint8,
                                 device=device, pin_memory=pin)
        self.params = torch.empty((self.capacity, self.param_row), dtype=torch.uint8,
                                  device=device, pin_memory=pin)
