from typing import List

import torch

from pyllama.ggml_types import GGMLType, row_size
from pyllama.hparams import LlamaHParams


class CellRingCache:
    """Unified KV cache: kv_size cells shared by all sequences; rows stored as raw bytes."""

    def __init__(self, hp: LlamaHParams, kv_size: int, type_k: GGMLType, type_v: GGMLType,
                 device="cuda"):
        self.hp = hp
        self.kv_size = kv_size
        self.type_k = type_k
        self.type_v = type_v
        self.k_l: List[torch.Tensor] = []
        self.v_l: List[torch.Tensor] = []
        for il in range(hp.n_layer):
            k_row = row_size(type_k, hp.n_embd_k_gqa(il))
            v_row = row_size(type_v, hp.n_embd_v_gqa(il))
            self.k_l.append(torch.empty((kv_size, k_row), dtype=torch.uint8, device=device))
            self.v_l.append(torch.empty((kv_size, v_row), dtype=torch.uint8, device=device))
        self.seq_pos = [-1] * kv_size

    def total_size(self) -> int:
        return sum(t.nbytes for t in self.k_l) + sum(t.nbytes for t in self.v_l)
