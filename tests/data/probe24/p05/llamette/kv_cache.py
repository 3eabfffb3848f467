from typing import List

import torch

from llamette.ggml_types import ggml_row_size
from llamette.gguf_meta import HParams


class KVCacheUnified:
    """One K and one V tensor per layer, rows of n_embd_{k,v}_gqa, kv_size cells."""

    def __init__(self, hparams: HParams, kv_size: int, type_k: str, type_v: str,
                 device: str = "cpu") -> None:
        self.n_layer = hparams.n_layer
        self.size = kv_size
        self.type_k = type_k
        self.type_v = type_v
        self.k_row_bytes = ggml_row_size(type_k, hparams.n_embd_k_gqa())
        self.v_row_bytes = ggml_row_size(type_v, hparams.n_embd_v_gqa())
        self.k_l: List[torch.Tensor] = []
        self.v_l: List[torch.Tensor] = []
        for _ in range(self.n_layer):
            self.k_l.append(torch.empty(self.k_row_bytes * kv_size, dtype=torch.uint8, device=device))
            self.v_l.append(torch.empty(self.v_row_bytes * kv_size, dtype=torch.uint8, device=device))

    def seq_rm(self, seq_id: int, p0: int, p1: int) -> None:
        pass
