from .config import ServeConfig
from .device_cache import GpuKVStore
from .host_cache import HostKVMirror


def build_kv_stores(cfg=None):
    cfg = cfg or ServeConfig()
    gpu = GpuKVStore(cfg)
    host = HostKVMirror(gpu, cfg.host_ratio, device=cfg.host_device)
    return gpu, host


class Engine:
    def __init__(self, cfg=None):
        self.cfg = cfg or ServeConfig()
        self.gpu_kv, self.host_kv = build_kv_stores(self.cfg)

    def describe(self):
        return {
            "gpu_slots": self.gpu_kv.num_slots,
            "host_slots": self.host_kv.num_slots,
            "bytes_per_token": self.gpu_kv.bytes_per_token(),
        }
