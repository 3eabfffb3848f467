import math

import torch


class PrimaryPool:
    """Device pool, one tensor with the layer axis first."""

    def __init__(self, layers, num_blocks, tokens_per_block, heads, head_size, dtype, scale_dtype, device):
        self.layers = list(layers)
        self.num_blocks = num_blocks
        self.tokens_per_block = tokens_per_block
        self.heads = heads
        self.head_size = head_size
        self.dtype = dtype
        self.scale_dtype = scale_dtype
        self.kv_pool = torch.empty(self.block_shape(len(self.layers), num_blocks), dtype=dtype, device=device)
        self.kv_scale = torch.full(self.block_shape(len(self.layers), num_blocks)[:-1], 1.0,
                                   dtype=scale_dtype, device=device)

    def block_shape(self, n_layers, n_blocks):
        return [n_layers, n_blocks, 2, self.tokens_per_block, self.heads, self.head_size]

    @staticmethod
    def bytes_per_block(pool):
        data = math.prod(pool.block_shape(len(pool.layers), 1)) * pool.dtype.itemsize
        scale = math.prod(pool.block_shape(len(pool.layers), 1)[:-1]) * pool.scale_dtype.itemsize
        return data + scale


class SecondaryPool:
    """Host pool used for block offload / onboarding (sized from a byte budget)."""

    def __init__(self, primary: PrimaryPool, budget_bytes: int, device="cpu"):
        self.layers = primary.layers
        self.tokens_per_block = primary.tokens_per_block
        self.num_blocks = max(1, budget_bytes // PrimaryPool.bytes_per_block(primary))
        shape = primary.block_shape(len(self.layers), self.num_blocks)
        self.kv_pool = torch.empty(shape, dtype=primary.dtype, device=device)
        self.kv_scale = torch.full(shape[:-1], 1.0, dtype=primary.scale_dtype, device=device)

    def offload(self, primary, src_block, dst_block):
        self.kv_pool[:, dst_block].copy_(primary.kv_pool[:, src_block])
        self.kv_scale[:, dst_block].copy_(primary.kv_scale[:, src_block])

    def onboard(self, primary, src_block, dst_block):
        primary.kv_pool[:, dst_block].copy_(self.kv_pool[:, src_block])
        primary.kv_scale[:, dst_block].copy_(self.kv_scale[:, src_block])
