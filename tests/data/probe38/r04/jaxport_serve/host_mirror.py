"""Host mirror of the latent cache, used for prefix reuse across requests."""
from typing import List

import torch

from .spec import LatentAttnSpec, jnp_dtype


class HostLatentMirror:
    def __init__(self, spec: LatentAttnSpec, device="cpu"):
        self.spec = spec
        self.capacity = spec.host_mirror_tokens
        self.dtype = jnp_dtype(spec.cache_dtype)
        # one (tokens, width) slab per layer, mirroring the c_kv rows
        width = spec.latent_rank
        self.layers: List[torch.Tensor] = []
        for _ in range(spec.n_layers):
            self.layers.append(torch.empty([self.capacity, width], dtype=self.dtype, device=device))

    def save_pages(self, device_cache, layer: int, pages: torch.Tensor, host_idx: torch.Tensor) -> None:
        rows = device_cache.gather(layer, pages)
        self.layers[layer][host_idx] = rows[:, : self.layers[layer].shape[1]].to(self.layers[layer].device)

    def load_pages(self, device_cache, layer: int, host_idx: torch.Tensor,
                   pages: torch.Tensor, slots: torch.Tensor) -> None:
        rows = self.layers[layer][host_idx].to(device_cache.latent_pages.device)
        rank = self.spec.latent_rank
        device_cache.update(layer, pages, slots, rows[:, :rank], rows[:, rank:])
