"""Device KV cache: one flat K and one flat V tensor per layer (ggml style)."""
from typing import List

import torch

from .hparams import GGML_TYPE_TO_TORCH, LlamaCParams, LlamaHParams, layer_kv_size


class LlamaKVCache:
    def __init__(self, hparams: LlamaHParams, cparams: LlamaCParams, device="cuda"):
        self.hparams = hparams
        self.cparams = cparams
        self.device = torch.device(device)
        self.type_k = GGML_TYPE_TO_TORCH[cparams.type_k]
        self.type_v = GGML_TYPE_TO_TORCH[cparams.type_v]

        self.n_layer = hparams.n_layer
        self.kv_size: List[int] = []
        self.k_l: List[torch.Tensor] = []
        self.v_l: List[torch.Tensor] = []
        for il in range(self.n_layer):
            n_embd_k_gqa = hparams.n_embd_k_gqa(il)
            n_embd_v_gqa = hparams.n_embd_v_gqa(il)
            kv_size = layer_kv_size(hparams, cparams, il)
            self.kv_size.append(kv_size)
            # ggml_new_tensor_1d(ctx, type_k, n_embd_k_gqa*kv_size)
            self.k_l.append(torch.empty(n_embd_k_gqa * kv_size, dtype=self.type_k, device=self.device))
            self.v_l.append(torch.empty(n_embd_v_gqa * kv_size, dtype=self.type_v, device=self.device))

    def get_k(self, il: int, n_kv: int) -> torch.Tensor:
        h = self.hparams
        return self.k_l[il][: n_kv * h.n_embd_k_gqa(il)].view(n_kv, h.n_head_kv, h.n_embd_head_k)

    def get_v(self, il: int, n_kv: int) -> torch.Tensor:
        h = self.hparams
        return self.v_l[il][: n_kv * h.n_embd_v_gqa(il)].view(n_kv, h.n_head_kv, h.n_embd_head_v)

    def total_size(self) -> int:
        return sum(t.nbytes for t in self.k_l) + sum(t.nbytes for t in self.v_l)
