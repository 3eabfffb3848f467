from typing import Optional

from .config import QuantKVConfig
from .store import QuantizedKVStore, CpuShadowBuffer


class KVRuntime:
    def __init__(self, store: QuantizedKVStore, shadow: CpuShadowBuffer):
        self.store = store
        self.shadow = shadow

    @classmethod
    def build(
        cls,
        cfg: Optional[QuantKVConfig] = None,
        device: str = "cuda",
        shadow_device: str = "cpu",
        device_slots: int = 8192,
        shadow_slots: int = 2048,
    ) -> "KVRuntime":
        cfg = cfg or QuantKVConfig()
        store = QuantizedKVStore(cfg, device_slots, device=device)
        shadow = CpuShadowBuffer(cfg, shadow_slots, device=shadow_device)
        return cls(store, shadow)
