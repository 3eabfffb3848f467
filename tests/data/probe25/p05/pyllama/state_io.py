from typing import List

import torch

from pyllama.ggml_types import row_size
from pyllama.kv_cells import CellRingCache


class CellSnapshot:
    """Host buffer that one sequence's cells are copied into for state save/restore."""

    def __init__(self, cache: CellRingCache, n_cells: int, device="cpu"):
        hp = cache.hp
        self.n_cells = n_cells
        self.n_layer = hp.n_layer
        self.k_rows: List[torch.Tensor] = []
        self.v_rows: List[torch.Tensor] = []
        for il in range(hp.n_layer):
            self.k_rows.append(torch.empty(
                (n_cells, row_size(cache.type_k, hp.n_embd_k_gqa(il))), dtype=torch.uint8,
                device=device))
            self.v_rows.append(torch.empty(
                (n_cells, row_size(cache.type_v, hp.n_embd_v_gqa(il))), dtype=torch.uint8,
                device=device))

    def write_header(self) -> dict:
        return {"n_cells": self.n_cells, "n_layer": self.n_layer,
                "k_bytes": [t.nbytes for t in self.k_rows],
                "v_bytes": [t.nbytes for t in self.v_rows]}
