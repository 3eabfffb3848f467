from typing import List

import torch


class LatentTokenPool:
    """Token-indexed MLA cache: one compressed latent + rope row per token per layer.

    Slot 0..page_size-1 is a padding page so that index 0 can be used for dummy writes.
    """

    def __init__(self, size: int, page_size: int, dtype: torch.dtype, kv_lora_rank: int,
                 qk_rope_head_dim: int, layer_num: int, device="cuda"):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.layer_num = layer_num
        self.kv_cache_dim = kv_lora_rank + qk_rope_head_dim
        self.kv_buffer: List[torch.Tensor] = [
            torch.zeros((size + page_size, 1, self.kv_cache_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]

    def get_key_buffer(self, layer_id: int) -> torch.Tensor:
        return self.kv_buffer[layer_id]

    def get_value_buffer(self, layer_id: int) -> torch.Tensor:
        return self.kv_buffer[layer_id][..., : self.kv_lora_rank]

    def contiguous_buf_infos(self):
        ptrs = [b.data_ptr() if b.device.type != "meta" else 0 for b in self.kv_buffer]
        lens = [b.nbytes for b in self.kv_buffer]
        item_lens = [b[0].nbytes * self.page_size for b in self.kv_buffer]
        return ptrs, lens, item_lens
