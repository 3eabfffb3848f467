import torch

from kvd.memory_pool import MHATokenToKVPool
from kvd.plan import indexer_plan


class IndexerPool:
    def __init__(self, size, page_size, dtype, head_num, head_dim, layer_num, device):
        self.size = size
        self.page_size = page_size
        self.layer_num = layer_num
        plan = indexer_plan(head_dim, dtype)
        for name, (width, buf_dtype) in plan.items():
            setattr(
                self,
                name,
                [
                    torch.zeros((size + page_size, width), dtype=buf_dtype, device=device)
                    for _ in range(layer_num)
                ],
            )

    def attach(self, kv_pool: MHATokenToKVPool):
        self.kv_pool = kv_pool
