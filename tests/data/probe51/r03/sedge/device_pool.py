"""GPU pools: per-request Mamba states next to per-token attention K/V."""
from __future__ import annotations

import torch

from .layout import AttnStorage, MambaStorage


class MambaStateSlab:
    def __init__(self, spec: MambaStorage, device: str):
        n = len(spec.layer_ids)
        self.conv = torch.zeros((n, spec.max_requests + 1, *spec.conv_shape),
                                dtype=spec.dtype, device=device)
        self.ssm = torch.zeros((n, spec.max_requests + 1, *spec.ssm_shape),
                               dtype=torch.float32, device=device)


class HybridDevicePool:
    def __init__(self, attn: AttnStorage, mamba: MambaStorage, device: str = "cuda"):
        self.storage = attn
        self.mamba = MambaStateSlab(mamba, device)
        self.k_cache: dict[int, torch.Tensor] = {}
        self.v_cache: dict[int, torch.Tensor] = {}
        for lid in attn.layer_ids:
            self.k_cache[lid] = torch.empty((attn.slots + 1, *attn.token_shape),
                                            dtype=attn.dtype, device=device)
            self.v_cache[lid] = torch.empty((attn.slots + 1, *attn.token_shape),
                                            dtype=attn.dtype, device=device)

    def get_kv_buffer(self, layer_id: int):
        return self.k_cache[layer_id], self.v_cache[layer_id]
