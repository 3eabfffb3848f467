"""Landing buffers on the decode instance.

Prefill rank r writes into decode rank r (same tensor-parallel degree on both sides).
"""
from typing import Dict, List

import torch

from .model_specs import ATTENTION_SPECS, InstanceConfig


class DecodeKVReceiver:
    """Per-layer [slots, 2, kv_heads, head_dim] landing tensors keyed by layer index."""

    def __init__(self, cfg: InstanceConfig, device="cuda"):
        spec = ATTENTION_SPECS[cfg.model]
        self.layer_count = spec["layers"]
        self.slots = cfg.max_kv_tokens
        width = (spec["kv_heads"], spec["head_dim"])
        self.kv: Dict[int, torch.Tensor] = {
            i: torch.empty((self.slots, 2, *width), dtype=cfg.kv_dtype, device=device)
            for i in range(self.layer_count)
        }
        self._free: List[int] = list(range(self.slots))
        self.arrived: Dict[str, List[int]] = {}

    def allocate(self, request_id: str, n_tokens: int) -> List[int]:
        if n_tokens > len(self._free):
            raise RuntimeError("decode receiver full")
        slots, self._free = self._free[:n_tokens], self._free[n_tokens:]
        self.arrived[request_id] = slots
        return slots

    def complete(self, request_id: str) -> None:
        self._free.extend(self.arrived.pop(request_id))
