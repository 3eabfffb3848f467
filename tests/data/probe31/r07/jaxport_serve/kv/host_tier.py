import itertools
from typing import Dict, List, Sequence

import torch

from jaxport_serve.config import TransformerConfig
from jaxport_serve.kv.pages import StageKVPages


def _page_shape(cfg: TransformerConfig, num_pages: int, heads: int):
    return (num_pages, cfg.page_size, heads, cfg.head_dim)


class HostKVTier:
    """CPU page tier for a serving replica; idle prefixes are parked here."""

    def __init__(self, cfg: TransformerConfig, pages: StageKVPages, pin_memory: bool = False):
        self.cfg = cfg
        self.start_layer = pages.start_layer
        self.end_layer = pages.end_layer
        self.num_pages = cfg.host_pages
        n_local = self.end_layer - self.start_layer
        shape = _page_shape(cfg, self.num_pages, pages.num_heads)
        alloc = lambda s: torch.empty(s, dtype=cfg.dtype, device="cpu", pin_memory=pin_memory)
        self.k_pages: List[torch.Tensor] = list(map(alloc, itertools.repeat(shape, n_local)))
        self.v_pages: List[torch.Tensor] = list(map(alloc, itertools.repeat(shape, n_local)))

    def offload(self, pages: StageKVPages, device_pages: Sequence[int], host_pages: Sequence[int]) -> None:
        src = torch.as_tensor(device_pages)
        dst = torch.as_tensor(host_pages)
        for i in range(len(self.k_pages)):
            k, v = pages.k_pages[i], pages.v_pages[i]
            self.k_pages[i][dst, ..., : k.shape[-1]] = k[src.to(k.device)].to("cpu")
            self.v_pages[i][dst, ..., : v.shape[-1]] = v[src.to(v.device)].to("cpu")

    def fetch(self, pages: StageKVPages, host_pages: Sequence[int], device_pages: Sequence[int]) -> None:
        src = torch.as_tensor(host_pages)
        for i in range(len(self.k_pages)):
            k, v = pages.k_pages[i], pages.v_pages[i]
            dst = torch.as_tensor(device_pages, device=k.device)
            k[dst] = self.k_pages[i][src, ..., : k.shape[-1]].to(k.device)
            v[dst] = self.v_pages[i][src, ..., : v.shape[-1]].to(v.device)

    def nbytes(self) -> Dict[str, int]:
        return {
            "k_pages": sum(t.nbytes for t in self.k_pages),
            "v_pages": sum(t.nbytes for t in self.v_pages),
        }
