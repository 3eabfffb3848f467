"""Pool specification shared by the prefill and decode instances."""
from dataclasses import dataclass

import torch

_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16}


@dataclass(frozen=True)
class PoolSpec:
    num_layers: int = 48
    kv_heads: int = 4
    head_dim: int = 128
    page_size: int = 32
    num_pages: int = 256
    dtype_name: str = "bfloat16"
    index_head_dim: int = 128
    index_quant_block: int = 128
    pp_rank: int = 1
    pp_size: int = 4
    transfer_chunk_pages: int = 16

    @property
    def torch_dtype(self):
        return _DTYPES[self.dtype_name]

    @property
    def layer_range(self):
        per_stage = self.num_layers // self.pp_size
        return range(self.pp_rank * per_stage, (self.pp_rank + 1) * per_stage)

    @property
    def kv_row_elems(self):
        return self.kv_heads * self.head_dim

    @property
    def index_bytes_per_token(self):
        """fp8 index key followed by one fp32 scale per quant block."""
        return self.index_head_dim + (self.index_head_dim // self.index_quant_block) * 4
