import torch


class PagedKVPool:
    """Block-table KV cache: [layer, block, block_size, kv_heads, head_dim]."""

    def __init__(self, num_blocks, block_size, num_layers, num_kv_heads, head_dim,
                 dtype, device):
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.dtype = getattr(torch, dtype)
        shape = (num_layers, num_blocks, block_size, num_kv_heads, head_dim)
        self.key_blocks = torch.empty(shape, dtype=self.dtype, device=device)
        self.value_blocks = torch.empty(shape, dtype=self.dtype, device=device)
        self.free_blocks = list(range(num_blocks))

    def allocate(self, n):
        if n > len(self.free_blocks):
            return None
        out, self.free_blocks = self.free_blocks[:n], self.free_blocks[n:]
        return out

    def free(self, blocks):
        self.free_blocks.extend(blocks)
