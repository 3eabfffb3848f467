"""FP8 KV quantization parameters."""
import os

import torch

FP8_DTYPE = torch.float8_e4m3fn
SCALE_DTYPE = torch.float32
FP8_MAX = torch.finfo(FP8_DTYPE).max

# Number of consecutive head_dim elements sharing one scale.
KV_QUANT_GROUP_SIZE = int(os.environ.get("KV_FP8_GROUP_SIZE", "64"))


def num_scale_groups(head_dim: int, group_size: int) -> int:
    assert head_dim % group_size == 0, (head_dim, group_size)
    return head_dim // group_size


def quantize_per_group(x: torch.Tensor, group_size: int):
    *lead, d = x.shape
    g = x.float().reshape(*lead, d // group_size, group_size)
    scale = g.abs().amax(dim=-1).clamp(min=1e-12) / FP8_MAX
    q = (g / scale.unsqueeze(-1)).to(FP8_DTYPE).reshape(*lead, d)
    return q, scale.to(SCALE_DTYPE)
