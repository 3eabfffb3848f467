"""Flash causal LM wrapper: owns the per-layer KV caches."""
from dataclasses import dataclass
from typing import List, Optional

import torch

from .dist import kv_heads_for_rank
from .kv_cache import BLOCK_SIZE, KVCache
from .migration import MigrationStage

SUPPORTED_DTYPES = (torch.float16, torch.bfloat16, torch.float32)
KV_CACHE_DTYPES = {"fp8_e4m3fn": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2}


@dataclass
class FlashConfig:
    hidden_size: int = 5120
    num_attention_heads: int = 40
    num_key_value_heads: int = 8
    num_hidden_layers: int = 40
    head_dim: Optional[int] = None

    def __post_init__(self):
        if self.head_dim is None:
            self.head_dim = self.hidden_size // self.num_attention_heads
        if self.head_dim <= 0 or self.head_dim % 16:
            raise ValueError("head_dim must be a positive multiple of 16 for the paged kernels")


def resolve_kv_dtype(dtype: torch.dtype, kv_cache_dtype: Optional[str]) -> torch.dtype:
    if dtype not in SUPPORTED_DTYPES:
        raise ValueError(f"unsupported dtype {dtype}")
    if kv_cache_dtype is None:
        return dtype
    if kv_cache_dtype not in KV_CACHE_DTYPES:
        raise ValueError(f"unsupported kv_cache_dtype {kv_cache_dtype}")
    return KV_CACHE_DTYPES[kv_cache_dtype]


class FlashCausalLM:
    def __init__(self, config: FlashConfig, *, dtype: torch.dtype,
                 kv_cache_dtype: Optional[str], world_size: int):
        self.config = config
        self.num_layers = config.num_hidden_layers
        self.num_kv_heads = kv_heads_for_rank(config.num_key_value_heads, world_size)
        self.head_size = config.head_dim
        self.kv_cache_dtype = resolve_kv_dtype(dtype, kv_cache_dtype)
        self.kv_cache: List[KVCache] = []

    def init_kv_cache(self, num_blocks: int, device) -> None:
        self.kv_cache = [
            KVCache(num_blocks=num_blocks, num_heads=self.num_kv_heads, head_size=self.head_size,
                    dtype=self.kv_cache_dtype, device=device)
            for _ in range(self.num_layers)
        ]


def build_cache_pair(device="cuda", dtype: torch.dtype = torch.bfloat16,
                     kv_cache_dtype: Optional[str] = None, world_size: int = 2,
                     num_blocks: int = 4096, staging_slots: int = 8 * BLOCK_SIZE * 64,
                     config: Optional[FlashConfig] = None):
    config = config or FlashConfig()
    model = FlashCausalLM(config, dtype=dtype, kv_cache_dtype=kv_cache_dtype, world_size=world_size)
    model.init_kv_cache(num_blocks, device)
    host_device = "meta" if str(device) == "meta" else "cpu"
    stage = MigrationStage(config, dtype=dtype, kv_cache_dtype=kv_cache_dtype,
                           world_size=world_size, num_slots=staging_slots, device=host_device)
    return model, stage
