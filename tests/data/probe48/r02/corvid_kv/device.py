"""GPU token pool allocated from a list of BufferSpec."""
from __future__ import annotations

from typing import Iterable

import torch

from .specs import BufferSpec


class GpuTokenPool:
    """Holds ``num_layers`` tensors of ``(num_slots, *spec.token_shape)`` per spec.

    Buffers are reached as attributes named after their spec, e.g. ``pool.kv``.
    """

    def __init__(self, specs: Iterable[BufferSpec], num_slots: int, num_layers: int,
                 device: str | torch.device = "cuda") -> None:
        self.num_slots = num_slots
        self.num_layers = num_layers
        self._specs = tuple(specs)
        self._buffers: dict[str, list[torch.Tensor]] = {}
        for spec in self._specs:
            self._buffers[spec.name] = [
                torch.empty((num_slots, *spec.token_shape), dtype=spec.dtype, device=device)
                for _ in range(num_layers)
            ]

    @property
    def specs(self) -> tuple[BufferSpec, ...]:
        return self._specs

    def __getattr__(self, name: str) -> list[torch.Tensor]:
        buffers = self.__dict__.get("_buffers", {})
        if name in buffers:
            return buffers[name]
        raise AttributeError(f"{type(self).__name__} has no buffer {name!r}")

    def bytes_per_token(self) -> int:
        return self.num_layers * sum(s.bytes_per_token for s in self._specs)
