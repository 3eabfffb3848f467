"""Prefill-side latent cache: quantised latent, its tile scales and the rope part."""
from __future__ import annotations

import torch

from .formats import LATENT_QUANT_TILE, MODEL_DTYPES, is_quantized, store_dtype


class PrefillLatentPool:
    def __init__(self, hf: dict, cache_dtype: str, budget_bytes: int,
                 page_size: int = 64, device: str = "cuda"):
        self.num_layers = hf["num_hidden_layers"]
        self.kv_lora_rank = hf["kv_lora_rank"]
        self.rope_dim = hf["qk_rope_head_dim"]
        self.model_dtype = hf.get("torch_dtype", "bfloat16")
        self.cache_dtype = cache_dtype
        self.page_size = page_size
        self.latent_dtype = store_dtype(cache_dtype, self.model_dtype)
        self.rope_dtype = MODEL_DTYPES[self.model_dtype]
        self.device = device

        self.num_tokens = self._tokens_for_budget(budget_bytes)
        self.latent_cache = self._per_layer(self.kv_lora_rank, self.latent_dtype)
        if is_quantized(cache_dtype):
            n_tiles = self.kv_lora_rank // LATENT_QUANT_TILE
            self.latent_scale = self._per_layer(n_tiles, torch.float32)
        else:
            self.latent_scale = []
        self.rope_cache = self._per_layer(self.rope_dim, self.rope_dtype)

    def _row_bytes(self) -> int:
        row = self.kv_lora_rank * self.latent_dtype.itemsize
        if is_quantized(self.cache_dtype):
            row += (self.kv_lora_rank // LATENT_QUANT_TILE) * 4
        return row + self.rope_dim * self.rope_dtype.itemsize

    def _tokens_for_budget(self, budget_bytes: int) -> int:
        tokens = budget_bytes // (self._row_bytes() * self.num_layers)
        return tokens - tokens % self.page_size

    def _per_layer(self, width: int, dtype: torch.dtype):
        return [
            torch.zeros((self.num_tokens + self.page_size, width), dtype=dtype,
                        device=self.device)
            for _ in range(self.num_layers)
        ]

    def describe(self) -> dict:
        """Metadata the decode side needs to lay out a compatible receive pool."""
        return {
            "layers": self.num_layers,
            "kv_lora_rank": self.kv_lora_rank,
            "qk_rope_head_dim": self.rope_dim,
            "cache_dtype": self.cache_dtype,
            "model_dtype": self.model_dtype,
            "quant_tile": LATENT_QUANT_TILE,
            "page_size": self.page_size,
        }
