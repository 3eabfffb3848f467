"""Create a device cache together with its host swap area."""
from typing import Optional

from .cache import (ExLlamaCache, ExLlamaCache_8bit, ExLlamaCache_Q4, ExLlamaCache_Q6,
                    ExLlamaCache_Q8)
from .config import ExConfig
from .host_swap import HostSwapArea

CACHE_TYPES = {
    "fp16": ExLlamaCache,
    "fp8": ExLlamaCache_8bit,
    "q4": ExLlamaCache_Q4,
    "q6": ExLlamaCache_Q6,
    "q8": ExLlamaCache_Q8,
}


def build_cache_pair(device: str = "cuda", mode: str = "q4", batch_size: int = 1,
                     max_seq_len: int = -1, config: Optional[ExConfig] = None):
    config = config or ExConfig()
    cache = CACHE_TYPES[mode](config, batch_size=batch_size, max_seq_len=max_seq_len, device=device)
    host_device = "meta" if str(device) == "meta" else "cpu"
    swap = HostSwapArea(config, mode, batch_size, cache.max_seq_len, device=host_device)
    return cache, swap
