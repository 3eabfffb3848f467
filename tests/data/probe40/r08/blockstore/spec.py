from typing import NamedTuple

import torch


class BlockSpec(NamedTuple):
    num_layers: int
    kv_heads: int
    head_dim: int
    dtype: torch.dtype
    block_size: int = 16

    def token_nbytes(self) -> int:
        return 2 * self.num_layers * self.kv_heads * self.head_dim * self.dtype.itemsize

    def block_nbytes(self) -> int:
        return self.block_size * self.token_nbytes()
