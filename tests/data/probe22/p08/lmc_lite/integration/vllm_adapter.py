"""Glue between the serving worker and the LMCache-style store."""
from typing import List

import torch

from ..config import LMCacheEngineConfig
from ..metadata import build_metadata
from ..storage_backend import create_backend

KV_CACHE_DTYPES = {"auto": None, "fp8": torch.float8_e4m3fn, "fp8_e4m3": torch.float8_e4m3fn,
                   "fp8_e5m2": torch.float8_e5m2}

LMCACHE_YAML = """
chunk_size: 256
local_cpu: true
max_local_cpu_size: 2.0   # GB
local_disk: null
remote_url: null
"""


class PagedKVPool:
    """Worker-side paged KV: per layer [2, num_blocks, block_size, num_kv_heads, head_size]."""

    def __init__(self, model_config: dict, parallel_config: dict, cache_config: dict,
                 device: str = "cuda"):
        self.block_size = cache_config["block_size"]
        self.num_blocks = cache_config["num_gpu_blocks"]
        self.dtype = (KV_CACHE_DTYPES[cache_config["cache_dtype"]]
                      or getattr(torch, model_config["torch_dtype"]))
        heads = model_config["num_key_value_heads"] // parallel_config["tensor_parallel_size"]
        head_size = model_config["hidden_size"] // model_config["num_attention_heads"]
        shape = (2, self.num_blocks, self.block_size, heads, head_size)
        self.kv_caches: List[torch.Tensor] = [
            torch.empty(shape, dtype=self.dtype, device=device)
            for _ in range(model_config["num_hidden_layers"])]


def init_worker_caches(model_config: dict, parallel_config: dict, cache_config: dict,
                       yaml_text: str = LMCACHE_YAML, device: str = "cuda",
                       host_device: str = "cpu"):
    pool = PagedKVPool(model_config, parallel_config, cache_config, device=device)
    lmc_config = LMCacheEngineConfig.from_yaml_text(yaml_text)
    metadata = build_metadata(model_config, parallel_config, cache_config,
                              lmc_config.chunk_size)
    store = create_backend("local_cpu", lmc_config, metadata, device=host_device)
    return pool, store
