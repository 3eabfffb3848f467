"""Model runner KV cache initialisation."""
from typing import Optional, Tuple

import torch

from .kv_cache_spec import HFTextConfig, SlidingWindowSpec, get_kv_cache_spec
from .offload.cpu import CPUOffloadCache
from .worker_cache import DeviceKVCache


def initialize_kv_cache(
    block_size: int = 16,
    tp_size: int = 4,
    num_gpu_blocks: int = 2048,
    num_cpu_blocks: int = 4096,
    max_num_seqs: int = 8,
    hf_config: Optional[HFTextConfig] = None,
    device="cuda",
    offload_device: Optional[str] = None,
) -> Tuple[DeviceKVCache, CPUOffloadCache]:
    cfg = hf_config or HFTextConfig()
    specs = get_kv_cache_spec(cfg, block_size, tp_size)

    gpu_blocks = {}
    cpu_blocks = {}
    for name, spec in specs.items():
        if isinstance(spec, SlidingWindowSpec):
            per_seq = -(-(spec.sliding_window - 1 + block_size) // block_size)
            gpu_blocks[name] = min(num_gpu_blocks, per_seq * max_num_seqs)
            cpu_blocks[name] = min(num_cpu_blocks, 2 * per_seq * max_num_seqs)
        else:
            gpu_blocks[name] = num_gpu_blocks
            cpu_blocks[name] = num_cpu_blocks

    device_cache = DeviceKVCache(specs, gpu_blocks, device=device)
    if offload_device is None:
        offload_device = "meta" if torch.device(device).type == "meta" else "cpu"
    cpu_cache = CPUOffloadCache(cfg, list(specs), block_size, tp_size, cpu_blocks, device=offload_device)
    return device_cache, cpu_cache
