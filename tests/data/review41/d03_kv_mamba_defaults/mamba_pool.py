import torch
from base import StatePoolBase


class MambaStatePool(StatePoolBase):
    def __init__(self, size: int, num_layers: int, dtype: torch.dtype,
                 conv_dim: int = 4096, conv_kernel: int = 4, num_heads: int = 64,
                 head_dim: int = 64, state_size: int = 128, device: str = "cuda"):
        self.size = size  # request slots
        plan = {
            "conv_state": (conv_dim, conv_kernel - 1),
            "ssm_state": (num_heads, head_dim, state_size),
        }
        self._allocate(plan, size, num_layers, dtype, device)
