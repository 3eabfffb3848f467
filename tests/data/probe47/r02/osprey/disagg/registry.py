"""Registry of peer pool classes keyed by disaggregation role."""
from __future__ import annotations

import functools
from typing import Callable

from .peer import DecodeReceivePool, PeerRole

_PEER_POOLS: dict[PeerRole, type] = {
    PeerRole.DECODE: DecodeReceivePool,
}


def register_peer_pool(role: PeerRole) -> Callable[[type], type]:
    def deco(cls: type) -> type:
        _PEER_POOLS[role] = cls
        return cls
    return deco


def peer_pool_factory(role: str | PeerRole, **defaults) -> Callable[..., object]:
    cls = _PEER_POOLS[PeerRole(role)]
    return functools.partial(cls, **defaults)
