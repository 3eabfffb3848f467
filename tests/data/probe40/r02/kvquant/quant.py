"""Per-group symmetric int8 quantization helpers for K/V."""
import torch

DEFAULT_GROUP = 128
SCALE_DTYPE = torch.float32
STORE_DTYPE = torch.int8


def scale_cols(head_dim: int, group: int = DEFAULT_GROUP) -> int:
    if head_dim % group:
        raise ValueError(f"head_dim {head_dim} not divisible by group {group}")
    return head_dim // group


def quantize(x: torch.Tensor, group: int):
    *lead, d = x.shape
    g = x.float().reshape(*lead, d // group, group)
    scale = g.abs().amax(dim=-1).clamp(min=1e-6) / 127.0
    q = torch.round(g / scale.unsqueeze(-1)).clamp(-127, 127).to(STORE_DTYPE)
    return q.reshape(*lead, d), scale.to(SCALE_DTYPE)


def dequantize(q: torch.Tensor, scale: torch.Tensor, group: int, out_dtype=torch.bfloat16):
    *lead, d = q.shape
    g = q.float().reshape(*lead, d // group, group) * scale.float().unsqueeze(-1)
    return g.reshape(*lead, d).to(out_dtype)
