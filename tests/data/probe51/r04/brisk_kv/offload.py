"""Host mirror; codes keep the device row shape, params are rebuilt from settings."""
from __future__ import annotations

import torch

from .pool import Int8TokenPool


class HostInt8Mirror:
    def __init__(self, device_pool: Int8TokenPool, host_tokens: int, device: str = "cpu"):
        s = device_pool.settings
        self.size = host_tokens
        self.layer_num = s.num_layers
        row = device_pool.k_q[0].shape[1:]
        code_dtype = device_pool.k_q[0].dtype
        self.k_q = [torch.empty((host_tokens, *row), dtype=code_dtype, device=device)
                    for _ in range(self.layer_num)]
        self.v_q = [torch.empty((host_tokens, *row), dtype=code_dtype, device=device)
                    for _ in range(self.layer_num)]
        self.param_shape = s.param_shape
        self.k_qparams = [torch.empty((host_tokens, *self.param_shape), device=device)
                          for _ in range(self.layer_num)]
        self.v_qparams = [torch.empty((host_tokens, *self.param_shape), device=device)
                          for _ in range(self.layer_num)]
