import torch

from .config import DTYPES, ServeConfig


class GpuKV:
    """Per-layer K and V slabs living on the accelerator."""

    def __init__(self, cfg: ServeConfig, device="cuda"):
        self.cfg = cfg
        self.device = device
        self.max_tokens = cfg.cache.max_tokens
        self.dtype = DTYPES[cfg.cache.dtype]
        m = cfg.model
        shape = (self.max_tokens + 1, m.kv_heads, m.head_dim)
        self.k_slabs = [
            torch.empty(shape, dtype=self.dtype, device=device)
            for _ in range(m.n_layers)
        ]
        self.v_slabs = [
            torch.empty(shape, dtype=self.dtype, device=device)
            for _ in range(m.n_layers)
        ]
