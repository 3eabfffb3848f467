"""Session state buffer (llama_state_seq_get_data / set_data equivalent).

Cells are serialised as raw bytes, one row per cell, per layer.  Sizes come
from the type traits in float form, the way the upstream size estimator does.
"""
from typing import List

import torch

from .ggml_types import ggml_type_sizef


class LlamaStateBuffer:
    def __init__(self, hparams, n_cells: int, type_k: str, type_v: str, device="cpu"):
        self.n_cells = n_cells
        n_layer = hparams["n_layer"]
        k_row = int(ggml_type_sizef(type_k) * hparams["n_embd_head_k"] * hparams["n_head_kv"])
        v_row = int(ggml_type_sizef(type_v) * hparams["n_embd_head_v"] * hparams["n_head_kv"])
        self.k_rows: List[torch.Tensor] = [
            torch.zeros([n_cells, k_row], dtype=torch.uint8, device=device) for _ in range(n_layer)
        ]
        self.v_rows: List[torch.Tensor] = [
            torch.zeros([n_cells, v_row], dtype=torch.uint8, device=device) for _ in range(n_layer)
        ]

    def save(self, kv, cells: torch.Tensor) -> int:
        n = 0
        for il, (k, v) in enumerate(zip(kv.k_l, kv.v_l)):
            self.k_rows[il][: cells.numel()] = k[cells].contiguous().view(torch.uint8).reshape(cells.numel(), -1)
            self.v_rows[il][: cells.numel()] = v[cells].contiguous().view(torch.uint8).reshape(cells.numel(), -1)
            n += self.k_rows[il][: cells.numel()].numel() + self.v_rows[il][: cells.numel()].numel()
        return n
