import itertools
from typing import Dict, List, Tuple

import torch

from jaxport_serve.config import TransformerConfig


def _heads_per_shard(cfg: TransformerConfig) -> int:
    return cfg.num_heads // cfg.tensor_parallel


class StageKVPages:
    """Paged K/V for the layers ``[start_layer, end_layer)`` of one pipeline stage.

    Keys are stored with the query/key width ``head_dim`` and values with
    ``v_head_dim``; both as ``(num_pages, page_size, heads, width)``.
    """

    def __init__(self, cfg: TransformerConfig, start_layer: int, end_layer: int, device: str = "cuda"):
        self.cfg = cfg
        self.start_layer = start_layer
        self.end_layer = end_layer
        self.page_size = cfg.page_size
        self.num_heads = _heads_per_shard(cfg)
        n_local = end_layer - start_layer
        k_shape = (cfg.num_pages, cfg.page_size, self.num_heads, cfg.head_dim)
        v_shape = (cfg.num_pages, cfg.page_size, self.num_heads, cfg.v_head_dim)
        alloc = lambda shape: torch.zeros(shape, dtype=cfg.dtype, device=device)
        self.k_pages: List[torch.Tensor] = list(map(alloc, itertools.repeat(k_shape, n_local)))
        self.v_pages: List[torch.Tensor] = list(map(alloc, itertools.repeat(v_shape, n_local)))
        self.lengths = torch.zeros((cfg.num_pages,), dtype=torch.int32, device=device)

    def local(self, layer: int) -> int:
        if not self.start_layer <= layer < self.end_layer:
            raise IndexError(f"layer {layer} is not on this stage")
        return layer - self.start_layer

    def layer_cache(self, layer: int) -> Tuple[torch.Tensor, torch.Tensor]:
        i = self.local(layer)
        return self.k_pages[i], self.v_pages[i]

    def state_dict(self) -> Dict[str, List[torch.Tensor]]:
        return {"k_pages": self.k_pages, "v_pages": self.v_pages}
