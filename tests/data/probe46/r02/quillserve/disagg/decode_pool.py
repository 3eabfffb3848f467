"""Receiving-side latent pool for decode workers.

Decode workers allocate before the bootstrap handshake with the prefill
instance, so they derive the layout locally from the model config.
"""
from __future__ import annotations

import torch

from ..arch import MLAArch
from .wire import SCALE_GROUP


class LatentDecodePool:
    def __init__(self, arch: MLAArch, kv_cache_dtype: str, num_slots: int, device: str):
        self.arch = arch
        self.num_slots = num_slots
        fp8 = kv_cache_dtype.startswith("fp8")
        latent_dtype = torch.float8_e4m3fn if fp8 else torch.bfloat16
        groups = arch.kv_lora_rank // getattr(arch, "kv_quant_block", SCALE_GROUP) if fp8 else 1
        layers = arch.num_layers + arch.num_nextn_layers
        rows = num_slots + 1
        self.latent_cache = [torch.empty((rows, arch.kv_lora_rank), dtype=latent_dtype, device=device)
                             for _ in range(layers)]
        self.rope_cache = [torch.empty((rows, arch.qk_rope_head_dim), dtype=torch.bfloat16, device=device)
                           for _ in range(layers)]
        self.kv_scale = [torch.empty((rows, groups), dtype=torch.float32, device=device)
                         for _ in range(layers)]

    def receive_targets(self) -> list[list[torch.Tensor]]:
        return [self.latent_cache, self.rope_cache, self.kv_scale]
