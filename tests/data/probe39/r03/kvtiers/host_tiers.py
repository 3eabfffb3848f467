"""Host-memory tiers that GPU blocks can be evicted to.

Tiers register themselves by name so deployments can pick one with
``KVT_HOST_TIER`` without code changes.
"""

import torch

from . import envcfg

_TIERS = {}


def register_tier(name):
    def deco(cls):
        _TIERS[name] = cls
        cls.tier_name = name
        return cls
    return deco


def create_host_tier(kind, **kwargs):
    try:
        cls = _TIERS[kind]
    except KeyError:
        raise ValueError(f"unknown host tier {kind!r}; have {sorted(_TIERS)}") from None
    return cls(**kwargs)


class _HostTierBase:
    pin = False

    def __init__(self, *, num_layers, num_kv_heads, head_dim, num_blocks,
                 block_tokens, dtype=None, device="cpu"):
        self.num_blocks = num_blocks
        self.block_tokens = block_tokens
        self.dtype = dtype or envcfg.torch_dtype(envcfg.MODEL_DTYPE)
        pin = self.pin and torch.device(device).type == "cpu" and torch.cuda.is_available()
        shape = (num_layers, num_blocks, block_tokens, num_kv_heads, head_dim)
        self.k_blocks = torch.empty(shape, dtype=self.dtype, device=device, pin_memory=pin)
        self.v_blocks = torch.empty(shape, dtype=self.dtype, device=device, pin_memory=pin)
        self._lru = []
        self._map = {}

    def put(self, key, gpu_store, gpu_block):
        if key in self._map:
            return self._map[key]
        slot = len(self._map) if len(self._map) < self.num_blocks else self._evict()
        self.k_blocks[:, slot].copy_(gpu_store.k_blocks[:, gpu_block], non_blocking=self.pin)
        self.v_blocks[:, slot].copy_(gpu_store.v_blocks[:, gpu_block], non_blocking=self.pin)
        self._map[key] = slot
        self._lru.append(key)
        return slot

    def get(self, key, gpu_store, gpu_block):
        slot = self._map[key]
        gpu_store.k_blocks[:, gpu_block].copy_(self.k_blocks[:, slot], non_blocking=self.pin)
        gpu_store.v_blocks[:, gpu_block].copy_(self.v_blocks[:, slot], non_blocking=self.pin)
        self._lru.remove(key)
        self._lru.append(key)

    def _evict(self):
        victim = self._lru.pop(0)
        return self._map.pop(victim)


@register_tier("pinned")
class PinnedHostTier(_HostTierBase):
    pin = True


@register_tier("pageable")
class PageableHostTier(_HostTierBase):
    pin = False
