"""Server bring-up for the KV tiers."""
from __future__ import annotations

from .cpu_kv import BlockScaledHostPool
from .gpu_kv import BlockScaledDevicePool


def bring_up(hf: dict, opts, device: str = "cuda", host_device: str = "cpu"):
    gpu = BlockScaledDevicePool(hf, opts.tp_size, opts.kv_cache_dtype,
                                budget_bytes=opts.kv_budget_gib << 30, device=device)
    host = BlockScaledHostPool(gpu.fmt, gpu.layer_num, gpu.head_num, gpu.head_dim,
                               host_slots=gpu.slots * opts.host_multiplier,
                               device=host_device)
    return gpu, host
