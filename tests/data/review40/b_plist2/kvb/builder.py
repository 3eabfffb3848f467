import torch

from kvb.memory_pool import MHATokenToKVPool
from kvb.memory_pool_host import MHATokenToKVPoolHost


def build(cfg):
    pool = MHATokenToKVPool(cfg.size, 1, torch.bfloat16, cfg.heads, cfg.head_dim, cfg.layers, "cuda")
    host = MHATokenToKVPoolHost(pool, size=cfg.size * 2, page_size=1)
    return pool, host
