from typing import List

import torch

from exl_forge.cache import CacheQ

_SCALE_GROUP = 32


class HostPromptCache:
    """System-RAM copy of a prefix, restored into a CacheQ without requantising."""

    def __init__(self, device_cache: CacheQ, num_entries: int, prefix_len: int,
                 device: str = "cpu") -> None:
        cfg = device_cache.config
        self.num_entries = num_entries
        self.prefix_len = prefix_len
        self.num_layers = device_cache.num_layers
        scale_cols = cfg.kv_width // _SCALE_GROUP
        self.k_packed: List[torch.Tensor] = []
        self.v_packed: List[torch.Tensor] = []
        self.scales: List[torch.Tensor] = []
        for _ in range(self.num_layers):
            self.k_packed.append(torch.empty(
                (num_entries, prefix_len, cfg.packed_width), dtype=torch.uint8, device=device))
            self.v_packed.append(torch.empty(
                (num_entries, prefix_len, cfg.packed_width), dtype=torch.uint8, device=device))
            self.scales.append(torch.empty(
                (num_entries, prefix_len, 2, scale_cols), dtype=torch.float16, device=device))

    @property
    def num_tokens(self) -> int:
        return self.num_entries * self.prefix_len

    def store(self, device_cache: CacheQ, batch_idx: int, entry: int) -> None:
        n = self.prefix_len
        for i in range(self.num_layers):
            self.k_packed[i][entry].copy_(device_cache.k_packed[i][batch_idx, :n])
            self.v_packed[i][entry].copy_(device_cache.v_packed[i][batch_idx, :n])
            self.scales[i][entry].copy_(device_cache.scales[i][batch_idx, :n])
