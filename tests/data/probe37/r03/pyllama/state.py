"""Sequence state save/restore: host staging buffer mirroring the KV cache rows."""
from typing import List

import torch

from .ggml_types import GGMLType
from .hparams import LlamaContextParams, LlamaHParams

QK = 32
# bytes per 32-element block for the block-quantized formats
_QBLOCK_BYTES = {
    GGMLType.Q4_0: 18,
    GGMLType.Q4_1: 20,
    GGMLType.Q5_0: 22,
    GGMLType.Q5_1: 24,
    GGMLType.Q8_0: 34,
}
# bytes per element otherwise
_ELEM_BYTES = {GGMLType.F32: 4, GGMLType.F16: 2, GGMLType.BF16: 2}


def _packed_width(t: GGMLType, n_elems: int) -> int:
    if t in _QBLOCK_BYTES:
        return n_elems // QK * _QBLOCK_BYTES[t]
    return n_elems * _ELEM_BYTES[t]


class SeqStateBuffer:
    """Host copy of sequence KV rows, laid out as written to a session file:
    for each layer K rows then V rows (V de-transposed on the way out)."""

    def __init__(self, hparams: LlamaHParams, cparams: LlamaContextParams,
                 n_tokens_max: int = 0, device: str = "cpu"):
        self.n_tokens_max = n_tokens_max or cparams.n_ctx
        width_k = _packed_width(cparams.type_k, hparams.n_head_kv * hparams.n_embd_head_k)
        width_v = _packed_width(cparams.type_v, hparams.n_head_kv * hparams.n_embd_head_v)
        self.k_l: List[torch.Tensor] = [
            torch.zeros((self.n_tokens_max, width_k), dtype=torch.uint8, device=device)
            for _ in range(hparams.n_layer)]
        self.v_l: List[torch.Tensor] = [
            torch.zeros((self.n_tokens_max, width_v), dtype=torch.uint8, device=device)
            for _ in range(hparams.n_layer)]
        self.n_tokens = 0

    def write_layer_k(self, il: int, rows: torch.Tensor) -> None:
        self.k_l[il][: rows.shape[0]].copy_(rows.view(torch.uint8).reshape(rows.shape[0], -1))
        self.n_tokens = max(self.n_tokens, rows.shape[0])

    def write_layer_v(self, il: int, v: torch.Tensor, transposed: bool) -> None:
        rows = v.t().contiguous() if transposed else v
        self.v_l[il][: rows.shape[0]].copy_(rows.view(torch.uint8).reshape(rows.shape[0], -1))

    def reset(self) -> None:
        self.n_tokens = 0
