import torch
from kv_pool import PagedKVPool
from mamba_pool import MambaStatePool


def init_hybrid_cache(cfg, size, max_running_requests, dtype):
    kv = PagedKVPool(size, cfg.num_hidden_layers, dtype)
    mamba = MambaStatePool(max_running_requests, cfg.num_hidden_layers, dtype)
    return kv, mamba
