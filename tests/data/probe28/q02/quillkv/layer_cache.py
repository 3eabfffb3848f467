import torch

from .spec import CacheSpec


class Fp8LayerCache:
    def __init__(self, spec: CacheSpec, num_blocks: int, device="cuda"):
        self.spec = spec
        self.num_blocks = num_blocks
        shape = (
            spec.num_hidden_layers,
            num_blocks,
            spec.block_size,
            spec.kv_heads_local,
            spec.head_size,
        )
        self.k_store = torch.empty(shape, dtype=spec.cache_dtype, device=device)
        self.v_store = torch.empty(shape, dtype=spec.cache_dtype, device=device)
        self.scale_store = torch.ones(
            (spec.num_hidden_layers, num_blocks, spec.block_size, 2, spec.kv_heads_local),
            dtype=spec.scale_dtype,
            device=device,
        )

    def layer(self, idx: int):
        return self.k_store[idx], self.v_store[idx], self.scale_store[idx]
