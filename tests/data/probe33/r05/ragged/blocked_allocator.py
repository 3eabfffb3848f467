"""Free-list allocator over KV block ids."""

import torch


class BlockedAllocator:
    def __init__(self, num_blocks: int):
        self.num_blocks = num_blocks
        self._free = torch.arange(num_blocks, dtype=torch.int32)
        self._head = 0

    @property
    def free_blocks(self) -> int:
        return self.num_blocks - self._head

    def allocate(self, n: int) -> torch.Tensor:
        if n > self.free_blocks:
            raise ValueError(f"requested {n} blocks, only {self.free_blocks} free")
        out = self._free[self._head:self._head + n].clone()
        self._head += n
        return out

    def free(self, blocks: torch.Tensor) -> None:
        n = blocks.numel()
        self._head -= n
        self._free[self._head:self._head + n] = blocks
