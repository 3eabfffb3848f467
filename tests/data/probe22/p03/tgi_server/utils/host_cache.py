"""Host tier for prefix-cache blocks evicted from the device radix allocator."""
from typing import List

import torch

from ..layers.kv_cache import KVCache


class HostKVCache:
    """Per-layer host copy. FP8 pages are kept as raw bytes on the host
    (pinned fp8 copies go through uint8 views)."""

    def __init__(self, key: torch.Tensor, value: torch.Tensor):
        self.key = key
        self.value = value

    @property
    def num_blocks(self) -> int:
        return self.key.shape[0]


def _host_dtype(dtype: torch.dtype) -> torch.dtype:
    if dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
        return torch.uint8
    return dtype


def build_host_tier(device_caches: List[KVCache], num_host_blocks: int,
                    device: str = "cpu") -> List[HostKVCache]:
    pin = device == "cpu" and torch.cuda.is_available()
    tier = []
    for kv in device_caches:
        dtype = _host_dtype(kv.dtype)
        key = torch.empty((num_host_blocks, ) + tuple(kv.key.shape[1:]),
                          dtype=dtype, device=device, pin_memory=pin)
        value = torch.empty((num_host_blocks, ) + tuple(kv.value.shape[1:]),
                            dtype=dtype, device=device, pin_memory=pin)
        tier.append(HostKVCache(key, value))
    return tier


def offload_blocks(device_caches, host_tier, src, dst):
    for kv, h in zip(device_caches, host_tier):
        h.key[dst].copy_(kv.key[src].view(h.key.dtype), non_blocking=True)
        h.value[dst].copy_(kv.value[src].view(h.value.dtype), non_blocking=True)
