from typing import List

import torch

from mlcish.config import KVCacheConfig, ModelConfig
from mlcish.kv.shape_utils import local_kv_heads


class MTPDraftKV:
    """KV for the next-token-prediction (MTP) draft layers. It is indexed with the target
    cache's page table, so it keeps the same page count and page size."""

    def __init__(self, model: ModelConfig, kv: KVCacheConfig, device="cuda"):
        self.num_layers = model.num_nextn_predict_layers
        self.num_pages = kv.max_num_pages
        self.page_size = kv.page_size
        heads = local_kv_heads(model, kv)
        k_shape = (self.num_pages, self.page_size, heads, model.qk_head_dim)
        v_shape = (self.num_pages, self.page_size, heads, model.v_head_dim)
        self.draft_k: List[torch.Tensor] = []
        self.draft_v: List[torch.Tensor] = []
        for _ in range(self.num_layers):
            self.draft_k.append(torch.zeros(k_shape, dtype=model.torch_dtype, device=device))
            self.draft_v.append(torch.zeros(v_shape, dtype=model.torch_dtype, device=device))
