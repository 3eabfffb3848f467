import torch
from nested.config import ServerConfig
from nested.kv_device import DeviceKVStore

class HostKVStore:
    def __init__(self, cfg: ServerConfig, device_store: DeviceKVStore, num_slots: int):
        self.device_store = device_store
        shape = (cfg.model.num_layers, num_slots, cfg.model.num_kv_heads, cfg.model.head_dim)
        self.keys = torch.empty(shape, dtype=torch.float16)   # BUG: ignores cfg.cache.dtype
        self.values = torch.empty(shape, dtype=torch.float16)
