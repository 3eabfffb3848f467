"""Host-side sequence state buffer (llama_state_seq_get_data / set_data).

Holds a full copy of the per-layer K/V cells of one sequence so it can be
written to a session file or restored into another slot.
"""
from typing import List

import torch

from .hparams import GGML_TYPE_TO_TORCH, layer_kv_size


def _type_size(type_name: str) -> int:
    return torch.finfo(GGML_TYPE_TO_TORCH[type_name]).bits // 8


class KVStateBuffer:
    def __init__(self, hparams, cparams, device="cpu"):
        self.n_layer = hparams.n_layer
        self.device = torch.device(device)
        self.kv_size: List[int] = [layer_kv_size(hparams, cparams, il) for il in range(self.n_layer)]

        k_row = [hparams.n_embd_k_gqa(il) * _type_size(cparams.type_k) for il in range(self.n_layer)]
        v_row = [hparams.n_embd_v_gqa(il) * _type_size(cparams.type_v) for il in range(self.n_layer)]
        self.k_row_size = k_row
        self.v_row_size = v_row

        self.k_l: List[torch.Tensor] = [
            torch.empty(self.kv_size[il] * k_row[il], dtype=torch.uint8, device=self.device)
            for il in range(self.n_layer)
        ]
        self.v_l: List[torch.Tensor] = [
            torch.empty(self.kv_size[il] * v_row[il], dtype=torch.uint8, device=self.device)
            for il in range(self.n_layer)
        ]

    def save_from(self, cache, n_cells: List[int]) -> None:
        for il in range(self.n_layer):
            nk = n_cells[il] * self.k_row_size[il]
            nv = n_cells[il] * self.v_row_size[il]
            self.k_l[il][:nk].copy_(cache.k_l[il].view(torch.uint8)[:nk])
            self.v_l[il][:nv].copy_(cache.v_l[il].view(torch.uint8)[:nv])
