import torch

FORMATS = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2, "bf16": torch.bfloat16}
SCALE_DTYPE = torch.float32


def storage_dtype(fmt: str) -> torch.dtype:
    return FORMATS[fmt]


def is_fp8(dtype: torch.dtype) -> bool:
    return torch.finfo(dtype).bits == 8


def quantize(x: torch.Tensor, dtype: torch.dtype):
    """Per-token, per-head absmax quantization along head_dim."""
    fmax = torch.finfo(dtype).max
    scale = x.abs().amax(dim=-1).float().clamp(min=1e-6) / fmax
    q = (x.float() / scale.unsqueeze(-1)).clamp(-fmax, fmax).to(dtype)
    return q, scale.to(SCALE_DTYPE)
