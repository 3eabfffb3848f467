from sgl_kv.mem_cache.memory_pool import MLATokenToKVPool, NSATokenToKVPool
from sgl_kv.mem_cache.memory_pool_host import (MLATokenToKVPoolHost,
                                               NSATokenToKVPoolHost)


class HiRadixCache:
    """Radix tree over device pages with a write-through host tier (trimmed:
    only the pool plumbing is kept here)."""

    def __init__(self, token_to_kv_pool, page_size, hicache_ratio,
                 hicache_mem_layout, hicache_device="cpu"):
        self.kv_cache = token_to_kv_pool
        self.page_size = page_size
        if isinstance(token_to_kv_pool, NSATokenToKVPool):
            host_cls = NSATokenToKVPoolHost
        elif isinstance(token_to_kv_pool, MLATokenToKVPool):
            host_cls = MLATokenToKVPoolHost
        else:
            raise ValueError("HiCache requires an MLA pool in this fork")
        self.token_to_kv_pool_host = host_cls(
            token_to_kv_pool, hicache_ratio, page_size, hicache_mem_layout,
            device=hicache_device)
        self.root = {}
        self.evictable_size_ = 0
