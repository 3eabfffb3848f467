from dataclasses import dataclass
from typing import Tuple

import torch

GiB = 1 << 30


@dataclass(frozen=True)
class KVCacheConfig:
    """Describes one cache group: (num_layers, kv_heads, head_size)."""
    block_size: int = 64
    cache_shape: Tuple[int, int, int] = (40, 8, 128)
    cache_dtype: torch.dtype = torch.bfloat16
    max_blocks_per_allocation_group: int = 64


@dataclass(frozen=True)
class MemoryConfig:
    mode: str = "reserve"          # "reserve": leave this many bytes free
    device_total_bytes: int = 80 * GiB
    reserve_bytes: int = 16 * GiB
    host_offload_bytes: int = 32 * GiB
    host_block_size: int = 256


@dataclass(frozen=True)
class RaggedEngineConfig:
    kv: KVCacheConfig = KVCacheConfig()
    memory: MemoryConfig = MemoryConfig()
    tp_size: int = 4

    def local_cache_shape(self) -> Tuple[int, int, int]:
        layers, heads, head_size = self.kv.cache_shape
        assert heads % self.tp_size == 0, "kv heads must divide evenly across TP ranks"
        return layers, heads // self.tp_size, head_size
