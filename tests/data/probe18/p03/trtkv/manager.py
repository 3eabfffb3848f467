import torch

from .params import KvCacheParams, default_params
from .pools import PrimaryBlockPool, SecondaryBlockPool


class KVCacheManager:
    def __init__(self, params: KvCacheParams = None, primary_fraction_bytes=6 << 30,
                 secondary_bytes=0, device="cuda"):
        params = params or default_params()
        elem = torch.finfo(params.dtype).bits // 8
        block_bytes = (2 * len(params.layer_ids) * params.tokens_per_block
                       * params.num_kv_heads * params.size_per_head * elem)
        self.primary = PrimaryBlockPool(params, primary_fraction_bytes // block_bytes, device)
        self.secondary = None
        if secondary_bytes >= block_bytes:
            self.secondary = SecondaryBlockPool(self.primary, secondary_bytes // block_bytes)
