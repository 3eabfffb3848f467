from dataclasses import dataclass

import torch

STR_TO_DTYPE = {
    "fp16": torch.float16,
    "half": torch.float16,
    "bf16": torch.bfloat16,
    "fp32": torch.float32,
}


@dataclass
class CacheSpec:
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    cache_dtype: str = "fp16"
    block_size: int = 16

    @property
    def torch_dtype(self) -> torch.dtype:
        return STR_TO_DTYPE[self.cache_dtype]

    def bytes_per_block(self) -> int:
        elem = torch.tensor([], dtype=self.torch_dtype).element_size()
        # K and V, all layers
        return 2 * self.num_layers * self.block_size * self.num_kv_heads * self.head_dim * elem
