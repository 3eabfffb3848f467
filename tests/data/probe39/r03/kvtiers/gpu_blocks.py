"""Block-structured KV store in device memory."""

import torch

from . import envcfg


class BlockKVStore:
    def __init__(self, num_layers, num_kv_heads, head_dim, num_blocks,
                 block_tokens=envcfg.BLOCK_TOKENS, cache_dtype=None, device="cuda"):
        self.num_blocks = num_blocks
        self.block_tokens = block_tokens
        self.dtype = envcfg.torch_dtype(cache_dtype or envcfg.KV_CACHE_DTYPE)
        shape = (num_layers, num_blocks, block_tokens, num_kv_heads, head_dim)
        self.k_blocks = torch.empty(shape, dtype=self.dtype, device=device)
        self.v_blocks = torch.empty(shape, dtype=self.dtype, device=device)
        self.free_blocks = list(range(num_blocks))

    @property
    def num_tokens(self):
        return self.num_blocks * self.block_tokens

    def allocate(self, n):
        if n > len(self.free_blocks):
            raise MemoryError("out of GPU KV blocks")
        taken, self.free_blocks = self.free_blocks[:n], self.free_blocks[n:]
        return taken

    def release(self, blocks):
        self.free_blocks.extend(blocks)

    def block_view(self, block_ids):
        idx = torch.as_tensor(block_ids, device=self.k_blocks.device)
        return self.k_blocks[:, idx], self.v_blocks[:, idx]
