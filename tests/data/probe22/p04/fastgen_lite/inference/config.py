from dataclasses import dataclass, field
from enum import Enum
from typing import Tuple

import torch


class AllocationMode(Enum):
    RESERVE = "reserve"   # leave `size` bytes free
    ALLOCATE = "allocate"  # allocate exactly `size` bytes


@dataclass
class MemoryConfig:
    mode: AllocationMode = AllocationMode.ALLOCATE
    size: int = 8 << 30


@dataclass
class KVCacheConfig:
    block_size: int = 128
    num_allocation_groups: int = 1
    cache_shape: Tuple[int, int, int] = (0, 0, 0)  # (num_caches, num_heads, head_size)
    cache_dtype: torch.dtype = torch.float16
    max_blocks_per_allocation_group: int = 64


@dataclass
class StateManagerConfig:
    max_tracked_sequences: int = 2048
    max_ragged_batch_size: int = 768
    max_ragged_sequence_count: int = 512
    memory_config: MemoryConfig = field(default_factory=MemoryConfig)


@dataclass
class RaggedInferenceEngineConfig:
    tensor_parallel: int = 1
    state_manager: StateManagerConfig = field(default_factory=StateManagerConfig)


@dataclass
class GemmaConfig:
    """HF config of the served model (subset)."""
    hidden_size: int = 3072
    intermediate_size: int = 24576
    num_hidden_layers: int = 4
    num_attention_heads: int = 16
    num_key_value_heads: int = 16
    head_dim: int = 256
    vocab_size: int = 256000
    torch_dtype: str = "bfloat16"
