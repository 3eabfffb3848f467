import torch
from nested.config import ServerConfig

class DeviceKVStore:
    def __init__(self, cfg: ServerConfig, num_slots: int):
        self.num_slots = num_slots
        m = cfg.model
        self.keys = [torch.empty((num_slots, cfg.model.num_kv_heads, cfg.model.head_dim), dtype=cfg.cache.dtype)
                     for _ in range(cfg.model.num_layers)]
        self.values = [torch.empty((num_slots, cfg.model.num_kv_heads, cfg.model.head_dim), dtype=cfg.cache.dtype)
                       for _ in range(cfg.model.num_layers)]
