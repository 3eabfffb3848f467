"""Layer classification for models that interleave local and global attention."""
from __future__ import annotations

from enum import Enum
from types import SimpleNamespace


class LayerKind(Enum):
    GLOBAL = "full_attention"
    LOCAL = "sliding_attention"


def layer_kinds(cfg: SimpleNamespace) -> list[LayerKind]:
    explicit = getattr(cfg, "layer_types", None)
    if explicit:
        return [LayerKind(t) for t in explicit]
    n = cfg.num_hidden_layers
    if getattr(cfg, "sliding_window", None) is None:
        return [LayerKind.GLOBAL] * n
    # Gemma-2 style: even layers use the sliding window, odd layers are global.
    return [LayerKind.LOCAL if i % 2 == 0 else LayerKind.GLOBAL for i in range(n)]


def split_layers(cfg: SimpleNamespace) -> dict[LayerKind, list[int]]:
    out: dict[LayerKind, list[int]] = {LayerKind.GLOBAL: [], LayerKind.LOCAL: []}
    for i, kind in enumerate(layer_kinds(cfg)):
        out[kind].append(i)
    return out
