from kvd.indexer_pool import IndexerPool
from kvd.memory_pool import MHATokenToKVPool


def build_pools(size, page_size, dtype, head_num, head_dim, layer_num, device):
    kv = MHATokenToKVPool(size, page_size, dtype, head_num, head_dim, layer_num, device)
    indexer = IndexerPool(size, page_size, dtype, head_num, head_dim, layer_num, device)
    return kv, indexer
