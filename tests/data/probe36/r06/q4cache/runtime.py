from dataclasses import dataclass

from .device import PagedQ4Cache
from .host import HostQ4Mirror
from .layout import Q4CacheConfig


@dataclass
class CachePair:
    device: PagedQ4Cache
    host: HostQ4Mirror


def setup_q4_cache(device: str = "cuda", cfg: Q4CacheConfig = None) -> CachePair:
    cfg = cfg or Q4CacheConfig()
    dev = PagedQ4Cache(cfg, device=device)
    host = HostQ4Mirror(
        cfg,
        seq_capacity=dev.seq_capacity * cfg.host_pages_ratio,
        device="meta" if device == "meta" else "cpu",
    )
    dev.reserve()
    host.reserve()
    return CachePair(device=dev, host=host)
