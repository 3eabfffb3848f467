"""Host tier: pinned CPU blocks that receive evicted device blocks."""

import torch

from .config import KvbmConfig


class HostBlockPool:
    def __init__(self, config: KvbmConfig, num_blocks: int, device="cpu"):
        self.num_blocks = num_blocks
        self.block_size = config.block_size
        self.num_layers = config.num_layers
        self.inner_dim = config.num_kv_heads * config.head_dim
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.kv_blocks = torch.empty(
            (num_blocks, self.num_layers, 2, self.block_size, self.inner_dim),
            dtype=config.dtype,
            device=device,
            pin_memory=pin,
        )
        self.lookup = {}

    def offload(self, device_pool, device_block_ids, host_block_ids, seq_hashes):
        src = torch.as_tensor(device_block_ids, device=device_pool.kv_blocks.device)
        dst = torch.as_tensor(host_block_ids, device=self.kv_blocks.device)
        self.kv_blocks.index_copy_(0, dst, device_pool.kv_blocks.index_select(0, src).to(self.kv_blocks.device))
        self.lookup.update(zip(seq_hashes, host_block_ids))

    def onboard(self, device_pool, host_block_ids, device_block_ids):
        src = torch.as_tensor(host_block_ids, device=self.kv_blocks.device)
        dst = torch.as_tensor(device_block_ids, device=device_pool.kv_blocks.device)
        device_pool.kv_blocks.index_copy_(0, dst, self.kv_blocks.index_select(0, src).to(device_pool.kv_blocks.device))
