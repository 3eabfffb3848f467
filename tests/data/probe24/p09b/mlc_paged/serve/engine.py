from typing import Optional

import torch

from mlc_paged.connector.staging import KVStagingBuffer
from mlc_paged.serve.geometry import DSV2_LITE, KVGeometry
from mlc_paged.serve.paged_kv_cache import PagedKVCache


class ServingEngine:
    def __init__(self, model_config: Optional[dict] = None, num_pages: int = 2048,
                 page_size: int = 16, chunk_tokens: int = 256, device: str = "cuda",
                 staging_device: str = "cpu") -> None:
        self.geom = KVGeometry(**(model_config or DSV2_LITE))
        self.kv_cache = PagedKVCache(self.geom, num_pages, page_size, device=device)
        self.staging = KVStagingBuffer(self.geom, chunk_tokens, device=staging_device)
