"""Per-rank KV setup for a tensor-parallel decode worker."""

from .host_mirror import HostPageMirror
from .paged import ShardedPageCache
from .topology import ModelCard, TensorParallel


def setup_rank_kv(card=None, tp_rank=0, tp_size=4, num_pages=8192,
                  host_pages=32768, page_size=32, device="cuda", host_device="cpu"):
    card = card or ModelCard()
    tp = TensorParallel(tp_rank, tp_size)
    cache = ShardedPageCache(card, tp, num_pages, page_size=page_size, device=device)
    mirror = HostPageMirror(card, host_pages, page_size=page_size, device=host_device)
    return cache, mirror


class PrefixCacheManager:
    def __init__(self, cache, mirror):
        self.cache = cache
        self.mirror = mirror
        self.live = {}

    def release(self, token_hash):
        page = self.live.pop(token_hash)
        self.mirror.evict(token_hash, self.cache, page)
        self.cache.free([page])

    def lookup(self, token_hash):
        if token_hash in self.live:
            return self.live[token_hash]
        pages = self.cache.alloc_pages(1)
        if pages is None:
            return None
        if self.mirror.reattach(token_hash, self.cache, pages[0]):
            self.live[token_hash] = pages[0]
            return pages[0]
        self.cache.free(pages)
        return None
