from kvstore.device import DeviceKVStore
from kvstore.host import HostKVStore


class KVRuntime:
    def __init__(self, n_layers, gpu_tokens, kv_heads, head_dim, host_ratio=3):
        self.device_store = DeviceKVStore(n_layers, gpu_tokens, kv_heads, head_dim)
        self.host_store = HostKVStore(self.device_store, gpu_tokens * host_ratio)
