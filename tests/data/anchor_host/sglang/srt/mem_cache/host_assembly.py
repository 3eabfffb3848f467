"""The sparse stack: the KV host first, then the index-K host anchored on it. Both pools come
from the callers' sparse pool, which the audit does not follow.

layout-audit test tree (tests/test_anchor_host.py), after SGLang 0.5.23
`build_minimax_sparse_hicache_stack`.
"""

from sglang.srt.mem_cache.memory_pool_host import IndexKOnlyPoolHost, MHATokenToKVPoolHost


def build_sparse_host_stack(sparse_pool, ratio: float = 2.0):
    main_pool = sparse_pool.main_pool
    kv_host_pool = MHATokenToKVPoolHost(main_pool, ratio)
    index_k_pool = sparse_pool.index_k_pool
    index_host_pool = IndexKOnlyPoolHost(index_k_pool, kv_host_pool)
    return kv_host_pool, index_host_pool
