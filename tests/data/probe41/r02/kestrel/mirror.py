import torch


class PinnedBlockMirror:
    """Host copy of evicted blocks, shaped after the device table it serves."""

    def __init__(self, table, num_blocks, device="cpu"):
        self.table = table
        self.num_blocks = num_blocks
        self.block_size = table.block_size
        shape = (table.num_layers, num_blocks) + table.block_shape
        pin = device == "cpu" and torch.cuda.is_available()
        self.kv = torch.empty(shape, dtype=table.torch_dtype, device=device, pin_memory=pin)
        self.slot_of = {}

    def evict(self, dev_block, host_block):
        self.kv[:, host_block].copy_(self.table.kv[:, dev_block], non_blocking=True)
        self.slot_of[dev_block] = host_block

    def restore(self, host_block, dev_block):
        self.table.kv[:, dev_block].copy_(self.kv[:, host_block], non_blocking=True)
