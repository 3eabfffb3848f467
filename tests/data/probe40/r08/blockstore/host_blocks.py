"""Host block cache: block-major so one block is one contiguous DMA."""
import torch

from .spec import BlockSpec


class HostBlockCache:
    def __init__(self, spec: BlockSpec, num_blocks: int, pin_memory: bool = True):
        self.spec = spec
        self.num_blocks = num_blocks
        self.block_bytes = spec.block_nbytes()
        self.raw = torch.empty(num_blocks * self.block_bytes, dtype=torch.uint8,
                               device="cpu", pin_memory=pin_memory)
        # [blocks, layers, 2(k/v), block_size, heads, head_dim]
        self.kv_blocks = self.raw.view(spec.dtype).view(
            num_blocks, spec.num_layers, 2, spec.block_size, spec.kv_heads, spec.head_dim
        )

    def save(self, table, dev_block: int, host_block: int):
        self.kv_blocks[host_block].copy_(table.kv_blocks[:, :, dev_block], non_blocking=True)

    def load(self, table, host_block: int, dev_block: int):
        table.kv_blocks[:, :, dev_block].copy_(self.kv_blocks[host_block], non_blocking=True)
