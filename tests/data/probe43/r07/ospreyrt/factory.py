from .model_cfg import AttnSpec, PagingSpec
from .pools import HeadCacheDevice, LatentCacheDevice, PageMajorHostCache

DEVICE_POOLS = {"mla": LatentCacheDevice, "mha": HeadCacheDevice}


def spawn_pools(spec: AttnSpec = AttnSpec(), paging: PagingSpec = PagingSpec()):
    device_cls = DEVICE_POOLS[spec.arch]
    dev = device_cls(spec, paging)
    host = PageMajorHostCache(spec, paging)
    return dev, host
