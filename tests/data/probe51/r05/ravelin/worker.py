"""Worker-side KV initialisation."""
from __future__ import annotations

from .cpu_offload import CpuBlockStore
from .gpu_cache import GpuBlockCache
from .spec import PagedAttnSpec


def init_kv_tiers(model_cfg: dict, cache_cfg: dict, parallel_cfg: dict,
                  device: str = "cuda", cpu_device: str = "cpu"):
    spec = PagedAttnSpec.from_configs(model_cfg, cache_cfg, parallel_cfg["tensor_parallel_size"])
    layers = model_cfg["num_hidden_layers"]
    gpu = GpuBlockCache(spec, layers, cache_cfg["gpu_kv_bytes"], device=device)
    cpu = CpuBlockStore(spec, layers, int(cache_cfg["cpu_offload_gb"] * 1e9),
                        blocks_per_offload=cache_cfg.get("offload_block_factor", 16),
                        device=cpu_device)
    return gpu, cpu
