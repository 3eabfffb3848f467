import enum
from typing import NamedTuple

import torch


class KVDataType(enum.Enum):
    BF16 = (torch.bfloat16, 2)
    FP16 = (torch.float16, 2)
    INT8 = (torch.int8, 1)
    FP8 = (torch.float8_e4m3fn, 1)

    @property
    def torch_dtype(self):
        return self.value[0]

    @property
    def size(self):
        return self.value[1]

    @property
    def quantized(self):
        return self in (KVDataType.INT8, KVDataType.FP8)


class KvCacheConfig(NamedTuple):
    num_layers: int = 32            # Mixtral-8x7B
    num_kv_heads: int = 8
    head_size: int = 128
    tokens_per_block: int = 64
    max_blocks: int = 1024
    tp_size: int = 2
    pp_size: int = 2
    pp_rank: int = 0
    kv_dtype: KVDataType = KVDataType.INT8
    scale_dtype: KVDataType = None
    host_cache_size: int = 2 << 30
