"""Secondary (host) block pool used for KV cache reuse across requests."""
import torch


class SecondaryBlockPool:
    """Host pool holding evicted primary blocks with the same block layout."""

    def __init__(self, num_layers, num_kv_heads, head_size, tokens_per_block, num_blocks, dtype, device="cpu"):
        self.num_layers = num_layers
        self.num_kv_heads = num_kv_heads
        self.tokens_per_block = tokens_per_block
        self.num_blocks = num_blocks
        pin = device == "cpu" and torch.cuda.is_available()
        self.pool = torch.empty(
            (num_blocks, num_layers, 2, num_kv_heads, tokens_per_block, head_size),
            dtype=dtype,
            device=device,
            pin_memory=pin,
        )
        self.free_blocks = list(range(num_blocks))

    def offload(self, primary, primary_block, host_block):
        self.pool[host_block].copy_(primary.pool[primary_block], non_blocking=True)

    def onboard(self, primary, host_block, primary_block):
        primary.pool[primary_block].copy_(self.pool[host_block], non_blocking=True)
