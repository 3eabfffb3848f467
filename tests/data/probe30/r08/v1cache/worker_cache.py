"""Device KV cache tensors, allocated as raw bytes and reshaped per layer."""
from typing import Dict

import torch

from .kv_cache_spec import AttentionSpec


class DeviceKVCache:
    def __init__(self, specs: Dict[str, AttentionSpec], num_blocks: Dict[str, int], device="cuda"):
        self.specs = specs
        self.num_blocks = dict(num_blocks)
        self.device = torch.device(device)
        self.kv_caches: Dict[str, torch.Tensor] = {}
        for name, spec in specs.items():
            n = self.num_blocks[name]
            raw = torch.zeros(n * spec.page_size_bytes, dtype=torch.int8, device=self.device)
            shape = (2, n, spec.block_size, spec.num_kv_heads, spec.head_size)
            self.kv_caches[name] = raw.view(spec.dtype).view(shape)

    def num_tokens(self, name: str) -> int:
        return self.num_blocks[name] * self.specs[name].block_size
