"""Unified KV cache: one K and one V tensor per layer."""
from typing import Dict, List, Optional, Tuple

import torch

from .ggml_types import TORCH_DTYPE, GGMLType, ggml_is_quantized, ggml_row_size
from .hparams import LlamaContextParams, LlamaHParams
from .state import SeqStateBuffer


class LlamaKVCache:
    """KV cells for all sequences of a context.

    k_l[il]: [size, row_size(type_k, n_embd_k_gqa)] raw bytes.
    v_l[il]: rows like K when flash attention is on; otherwise stored transposed,
             [n_embd_v_gqa, size] elements, which only the float types support.
    """

    def __init__(self, hparams: LlamaHParams, cparams: LlamaContextParams, device: str = "cuda"):
        self.size = cparams.n_ctx
        self.n_layer = hparams.n_layer
        self.type_k = cparams.type_k
        self.type_v = cparams.type_v
        self.v_trans = not cparams.flash_attn
        if self.v_trans and ggml_is_quantized(self.type_v):
            raise ValueError("quantized V cache requires flash_attn")

        self.k_l: Dict[int, torch.Tensor] = {}
        self.v_l: Dict[int, torch.Tensor] = {}
        for il in range(self.n_layer):
            n_embd_k_gqa = hparams.n_embd_k_gqa(il)
            n_embd_v_gqa = hparams.n_embd_v_gqa(il)
            self.k_l[il] = torch.empty((self.size, ggml_row_size(self.type_k, n_embd_k_gqa)),
                                       dtype=torch.uint8, device=device)
            if self.v_trans:
                self.v_l[il] = torch.empty((n_embd_v_gqa, self.size),
                                           dtype=TORCH_DTYPE[self.type_v], device=device)
            else:
                self.v_l[il] = torch.empty((self.size, ggml_row_size(self.type_v, n_embd_v_gqa)),
                                           dtype=torch.uint8, device=device)
        self.cell_pos: List[int] = [-1] * self.size
        self.head = 0

    def find_slot(self, n_tokens: int) -> int:
        for start in range(self.size - n_tokens + 1):
            if all(p < 0 for p in self.cell_pos[start:start + n_tokens]):
                return start
        return -1

    def clear(self) -> None:
        self.cell_pos = [-1] * self.size
        self.head = 0

    def seq_rm(self, p0: int, p1: int) -> None:
        self.cell_pos = [-1 if p0 <= p < p1 else p for p in self.cell_pos]


def llama_init_kv(device: str = "cuda", hparams: Optional[LlamaHParams] = None,
                  cparams: Optional[LlamaContextParams] = None) -> Tuple[LlamaKVCache, SeqStateBuffer]:
    hparams = hparams or LlamaHParams()
    cparams = cparams or LlamaContextParams(type_k=GGMLType.Q8_0, type_v=GGMLType.F16)
    host_device = "meta" if str(device) == "meta" else "cpu"
    kv = LlamaKVCache(hparams, cparams, device=device if cparams.offload_kqv else host_device)
    state = SeqStateBuffer(hparams, cparams, device=host_device)
    return kv, state
