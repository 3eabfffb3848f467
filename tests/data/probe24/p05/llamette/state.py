from typing import List

import torch

from llamette.ggml_types import ggml_row_size
from llamette.gguf_meta import HParams


class SeqStateBuffer:
    """Host buffer used by llama_state_seq_get_data / set_data to snapshot a slot.

    Rows are written exactly as they sit in the KV cache so that restore is a
    memcpy per layer.
    """

    def __init__(self, hparams: HParams, n_cells: int, type_k: str, type_v: str,
                 device: str = "cpu") -> None:
        self.n_layer = hparams.n_layer
        self.n_cells = n_cells
        self.type_k = type_k
        self.type_v = type_v
        k_row = ggml_row_size(type_k, hparams.n_embd_k_gqa())
        v_row = ggml_row_size(self.type_k, hparams.n_embd_v_gqa())
        self.k_l: List[torch.Tensor] = [
            torch.empty(k_row * n_cells, dtype=torch.uint8, device=device)
            for _ in range(self.n_layer)]
        self.v_l: List[torch.Tensor] = [
            torch.empty(v_row * n_cells, dtype=torch.uint8, device=device)
            for _ in range(self.n_layer)]
