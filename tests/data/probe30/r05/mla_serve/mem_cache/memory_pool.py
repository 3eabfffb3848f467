"""Token-granular device KV pool for MLA models (one latent vector per token)."""
from typing import List

import torch

from ..model_config import MLADims


class MLATokenToKVPool:
    def __init__(self, size: int, page_size: int, dims: MLADims, device="cuda"):
        self.size = size
        self.page_size = page_size
        self.dims = dims
        self.dtype = dims.dtype
        self.layer_num = dims.num_layers
        self.device = torch.device(device)
        self.kv_lora_rank = dims.latent_dim
        self.qk_rope_head_dim = dims.rope_dim

        # The padded slot 0 is used for writing dummy outputs from padded tokens.
        self.kv_buffer: List[torch.Tensor] = [
            torch.zeros((size + page_size, 1, dims.kv_cache_dim), dtype=self.dtype, device=self.device)
            for _ in range(self.layer_num)
        ]

    def get_key_buffer(self, layer_id: int) -> torch.Tensor:
        return self.kv_buffer[layer_id]

    def get_value_buffer(self, layer_id: int) -> torch.Tensor:
        return self.kv_buffer[layer_id][..., : self.kv_lora_rank]

    def set_mla_kv_buffer(self, layer_id: int, loc: torch.Tensor, cache_k_nope, cache_k_rope) -> None:
        buf = self.kv_buffer[layer_id]
        buf[loc, :, : self.kv_lora_rank] = cache_k_nope
        buf[loc, :, self.kv_lora_rank :] = cache_k_rope
