from typing import Dict, List

import torch

from .config import EngineConfig
from .spec import AttentionSpec, get_kv_cache_specs


class DeviceKVCache:
    """Per-layer paged KV tensors on the accelerator."""

    def __init__(self, layer_specs: Dict[str, AttentionSpec], num_blocks: int, device: str):
        self.layer_specs = layer_specs
        self.num_blocks = num_blocks
        self.block_size = next(iter(layer_specs.values())).block_size
        self.device = device
        self.kv_caches: Dict[str, torch.Tensor] = {}
        for name, spec in layer_specs.items():
            self.kv_caches[name] = torch.zeros(
                spec.kv_cache_shape(num_blocks), dtype=spec.dtype, device=device
            )

    @property
    def num_layers(self) -> int:
        return len(self.kv_caches)

    def layer_caches(self) -> List[torch.Tensor]:
        return list(self.kv_caches.values())


class SwapSpace:
    """CPU blocks that device blocks are swapped out to under memory pressure."""

    def __init__(self, device_cache: DeviceKVCache, swap_space_bytes: int, device: str = "cpu"):
        self.block_size = device_cache.block_size
        per_block = sum(s.page_size_bytes for s in device_cache.layer_specs.values())
        self.num_blocks = int(swap_space_bytes // per_block)
        pin = device != "meta"
        self.cpu_cache: List[torch.Tensor] = []
        for spec in device_cache.layer_specs.values():
            self.cpu_cache.append(
                torch.zeros(
                    spec.kv_cache_shape(self.num_blocks),
                    dtype=spec.dtype,
                    device="meta" if device == "meta" else "cpu",
                    pin_memory=pin,
                )
            )

    @property
    def num_layers(self) -> int:
        return len(self.cpu_cache)

    def swap_out(self, device_cache: DeviceKVCache, src_to_dst: torch.Tensor) -> None:
        for src, dst in zip(device_cache.layer_caches(), self.cpu_cache):
            dst[:, src_to_dst[:, 1]] = src[:, src_to_dst[:, 0]].to(dst.device)


class CacheEngine:
    def __init__(self, config: EngineConfig, device: str):
        self.config = config
        specs = get_kv_cache_specs(config)
        self.gpu = DeviceKVCache(specs, config.cache.num_gpu_blocks, device)
        self.swap = SwapSpace(self.gpu, config.cache.swap_space_bytes, device=device)
