"""Unified KV cache: one K and one V tensor per layer, n_ctx cells each."""
from typing import List

import torch

from .ggml_types import GGML_TYPE_TRAITS, ggml_row_size, torch_storage_dtype


class LlamaKVCache:
    def __init__(self, hparams, n_ctx: int, type_k: str = "f16", type_v: str = "f16",
                 device="cpu"):
        self.size = n_ctx
        self.type_k = type_k
        self.type_v = type_v
        n_embd_k_gqa = hparams["n_head_kv"] * hparams["n_embd_head_k"]
        n_embd_v_gqa = hparams["n_head_kv"] * hparams["n_embd_head_v"]
        self.k_l: List[torch.Tensor] = []
        self.v_l: List[torch.Tensor] = []
        for il in range(hparams["n_layer"]):
            self.k_l.append(self._new_tensor(type_k, n_embd_k_gqa, device))
            self.v_l.append(self._new_tensor(type_v, n_embd_v_gqa, device))
        self.head = 0
        self.used = 0

    def _new_tensor(self, type_name: str, n_embd: int, device) -> torch.Tensor:
        dtype = torch_storage_dtype(type_name)
        if GGML_TYPE_TRAITS[type_name].is_quantized:
            # quantized rows are stored as raw bytes
            return torch.empty((self.size, ggml_row_size(type_name, n_embd)), dtype=dtype, device=device)
        return torch.empty((self.size, n_embd), dtype=dtype, device=device)

    def find_slot(self, n_tokens: int) -> int:
        """Return the first cell index of a contiguous free run (ring search)."""
        if n_tokens > self.size:
            raise ValueError(f"n_tokens={n_tokens} > n_ctx={self.size}")
        if self.head + n_tokens > self.size:
            self.head = 0
        start = self.head
        self.head += n_tokens
        self.used = min(self.size, self.used + n_tokens)
        return start

    def seq_rm(self, p0: int, p1: int) -> None:
        """Forget cells [p0, p1); data is left in place and overwritten later."""
        p1 = self.size if p1 < 0 else p1
        self.used = max(0, self.used - (p1 - p0))
        if self.head > p0:
            self.head = p0

    def clear(self) -> None:
        self.head = 0
        self.used = 0

    def total_size(self) -> int:
        return sum(t.numel() * t.element_size() for t in self.k_l + self.v_l)
