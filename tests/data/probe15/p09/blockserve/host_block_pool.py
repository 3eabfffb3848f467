import torch

from blockserve.block_pool import BlockPool
from blockserve.runtime_config import RuntimeConfig


class HostBlockPool:
    def __init__(self, config: RuntimeConfig, device: BlockPool, num_host_blocks: int):
        self.block_size = device.block_size
        self.blocks = [
            torch.empty((num_host_blocks, 2, self.block_size, config.get_kv_heads(), config.get_head_dim()),
                        dtype=torch.bfloat16, pin_memory=True)
            for _ in range(config.get_num_layers())
        ]
