import torch

from blockserve.runtime_config import RuntimeConfig


class BlockPool:
    def __init__(self, config: RuntimeConfig, num_blocks: int, block_size: int = 16):
        self.block_size = block_size
        self.blocks = [
            torch.empty((num_blocks, 2, block_size, config.get_kv_heads(), config.get_head_dim()),
                        dtype=config.get_kv_dtype(), device="cuda")
            for _ in range(config.get_num_layers())
        ]
