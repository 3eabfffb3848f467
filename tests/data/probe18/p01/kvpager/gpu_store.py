import torch

from .spec import CacheSpec


class PagedKVStore:
    """Block-paged K/V cache living on the accelerator."""

    def __init__(self, spec: CacheSpec, num_blocks: int, device: str = "cuda"):
        self.spec = spec
        self.num_blocks = num_blocks
        self.device = device
        shape = (num_blocks, spec.block_size, spec.num_kv_heads, spec.head_dim)
        self.key_blocks = []
        self.value_blocks = []
        for _ in range(spec.num_layers):
            self.key_blocks.append(torch.empty(shape, dtype=spec.torch_dtype, device=device))
            self.value_blocks.append(torch.empty(shape, dtype=spec.torch_dtype, device=device))

    def block_shape(self):
        return tuple(self.key_blocks[0].shape[1:])
