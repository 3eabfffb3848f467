"""KV produced on the prefill instance, held until the decode side acknowledges it."""
from typing import Dict, List, Tuple

import torch

from .model_specs import InstanceConfig


class PrefillKVStore:
    """One [2, capacity, local_kv_heads, head_dim] tensor per layer, keyed like the
    model's module names ("layers.{i}") so transfer descriptors are self-describing."""

    def __init__(self, cfg: InstanceConfig, device="cuda"):
        spec = cfg.spec()
        self.n_layers = spec["layers"]
        self.local_kv_heads = spec["kv_heads"] // cfg.tp_size
        self.head_dim = spec["head_dim"]
        self.capacity = cfg.max_kv_tokens
        self.kv: Dict[str, torch.Tensor] = {
            f"layers.{i}": torch.empty((2, self.capacity, self.local_kv_heads, self.head_dim),
                                       dtype=cfg.kv_dtype, device=device)
            for i in range(self.n_layers)
        }
        self.pending: Dict[str, Tuple[int, int]] = {}
        self._cursor = 0

    def reserve(self, request_id: str, n_tokens: int) -> int:
        if self._cursor + n_tokens > self.capacity:
            raise RuntimeError("prefill KV store full")
        start = self._cursor
        self.pending[request_id] = (start, n_tokens)
        self._cursor += n_tokens
        return start

    def export_descriptor(self, request_id: str) -> List[Tuple[str, int, int]]:
        start, length = self.pending[request_id]
        return [(name, start, length) for name in self.kv]

    def release(self, request_id: str) -> None:
        self.pending.pop(request_id, None)
        if not self.pending:
            self._cursor = 0
