import math
from typing import Sequence

import torch

from mlc_serve.kv_cache.paged import PagedKVCache
from mlc_serve.kv_cache.spec import KVCacheSpec


class PrefillDecodeStaging:
    """Token-major host staging used to hand a prefilled chunk to a decode worker.

    Rows are whole pages' worth of tokens; each row carries one token's
    K and V for every KV head of the shard, already quantized.
    """

    def __init__(self, spec: KVCacheSpec):
        self.page_size = spec.page_size
        self.pages_per_chunk = math.ceil(spec.prefill_chunk_size / spec.page_size)
        self.max_tokens = self.pages_per_chunk * spec.page_size
        elem = torch.tensor([], dtype=spec.kv_dtype).element_size()
        row_bytes = 2 * spec.num_kv_heads * spec.head_dim * elem
        self.kv_data = torch.empty((spec.num_layers, self.max_tokens, row_bytes), dtype=torch.uint8, device="cpu")
        self.kv_scales = torch.empty(
            (spec.num_layers, self.max_tokens, 2 * spec.num_kv_heads), dtype=spec.scale_dtype, device="cpu"
        )

    def pack(self, cache: PagedKVCache, pages: Sequence[int]) -> int:
        assert len(pages) <= self.pages_per_chunk
        for layer in range(self.kv_data.shape[0]):
            for i, page in enumerate(pages):
                rows = slice(i * self.page_size, (i + 1) * self.page_size)
                tok = cache.page_tokens(layer, page).reshape(self.page_size, -1)
                self.kv_data[layer, rows] = tok.view(torch.uint8).to("cpu")
                self.kv_scales[layer, rows] = cache.page_scales(layer, page).reshape(self.page_size, -1).to("cpu")
        return len(pages) * self.page_size
