import torch

from .gpu_store import PagedKVStore


class SwapSpace:
    """CPU-side swap area; blocks are copied 1:1 from/to PagedKVStore."""

    def __init__(self, store: PagedKVStore, num_cpu_blocks: int):
        spec = store.spec
        pin = torch.cuda.is_available()
        shape = (num_cpu_blocks,) + store.block_shape()
        self.key_blocks = [
            torch.empty(shape, dtype=spec.torch_dtype, device="cpu", pin_memory=pin)
            for _ in range(spec.num_layers)
        ]
        self.value_blocks = [
            torch.empty(shape, dtype=spec.torch_dtype, device="cpu", pin_memory=pin)
            for _ in range(spec.num_layers)
        ]
        self.num_cpu_blocks = num_cpu_blocks

    def swap_out(self, store: PagedKVStore, mapping):
        for layer in range(len(self.key_blocks)):
            for src, dst in mapping:
                self.key_blocks[layer][dst].copy_(store.key_blocks[layer][src])
                self.value_blocks[layer][dst].copy_(store.value_blocks[layer][src])
