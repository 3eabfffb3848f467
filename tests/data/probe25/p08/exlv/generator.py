from typing import Optional

from exlv.cache.cpu_mirror import CpuSessionMirror
from exlv.cache.device_cache import QuantContextCache
from exlv.config import ModelDims


class SessionGenerator:
    def __init__(self, dims: Optional[ModelDims] = None, cache_variant: str = "q4",
                 batch_size: int = 1, park_len: int = 4096, device="cuda", host_device="cpu"):
        self.dims = dims or ModelDims()
        self.cache = QuantContextCache(self.dims, cache_variant, batch_size, device=device)
        self.parked = CpuSessionMirror(self.cache, max_seq_len=park_len, device=host_device)
