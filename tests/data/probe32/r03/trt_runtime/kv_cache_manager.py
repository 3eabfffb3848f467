"""Primary (device) KV block pool."""
import torch


class KVCacheManager:
    """One contiguous pool: ``[max_blocks, num_layers, 2, kv_heads_per_rank, tokens_per_block, head_size]``.

    K/V heads are sharded over tensor-parallel ranks; each rank stores
    ``ceil(num_kv_heads / tp_size)`` heads.
    """

    def __init__(self, num_layers, num_kv_heads, head_size, tokens_per_block, max_blocks, dtype, tp_size=1, device="cuda"):
        self.num_layers = num_layers
        self.num_kv_heads_per_rank = (num_kv_heads + tp_size - 1) // tp_size
        self.head_size = head_size
        self.tokens_per_block = tokens_per_block
        self.max_blocks = max_blocks
        self.dtype = dtype
        self.device = device
        self.pool = torch.empty(
            (max_blocks, num_layers, 2, self.num_kv_heads_per_rank, tokens_per_block, head_size),
            dtype=dtype,
            device=device,
        )
        self.free_blocks = list(range(max_blocks))

    def allocate(self, num_blocks):
        if num_blocks > len(self.free_blocks):
            raise RuntimeError("out of KV cache blocks")
        blocks, self.free_blocks = self.free_blocks[:num_blocks], self.free_blocks[num_blocks:]
        return blocks

    def free(self, blocks):
        self.free_blocks.extend(blocks)

    def get_block_pointers(self, blocks):
        return [self.pool[b] for b in blocks]
