"""Engine-level construction of the KV hierarchy."""
from __future__ import annotations

import functools
from typing import Any, Mapping

from .cache.device import SplitWindowKVPool
from .cache.host import HostSplitWindowPool
from .model import load_arch


def create_kv_hierarchy(hf: Mapping[str, Any], tp_size: int, capacity_tokens: int,
                        swa_ratio: float = 0.25, host_factor: float = 3.0, page_size: int = 16,
                        device: str = "cuda", host_device: str = "cpu"):
    arch = load_arch(hf, tp_size)
    gpu = SplitWindowKVPool(arch, capacity_tokens, swa_ratio=swa_ratio, page_size=page_size,
                            device=device)
    make_host = functools.partial(HostSplitWindowPool, device=host_device, **gpu.host_kwargs())
    host = make_host(int(capacity_tokens * host_factor))
    return gpu, host
