from dataclasses import dataclass, field
from typing import Tuple

import torch


@dataclass(frozen=True)
class KVGroupSpec:
    block_size: int
    cache_shape: Tuple[int, int, int]  # (num_layers, num_kv_heads, head_size)
    cache_dtype: torch.dtype


@dataclass
class MemoryConfig:
    mode: str = "allocate"        # "allocate": size is the KV budget in bytes
    size: int = 1_000_000_000


@dataclass
class StateManagerConfig:
    max_tracked_sequences: int = 2048
    max_ragged_batch_size: int = 768
    memory_config: MemoryConfig = field(default_factory=MemoryConfig)
    offload_staging_blocks: int = 64


@dataclass
class EngineConfigV2:
    tensor_parallel: int = 1
    pipeline_parallel: int = 2
    pipeline_rank: int = 0
    state_manager: StateManagerConfig = field(default_factory=StateManagerConfig)
