import torch

from .ggml_types import ggml_row_size


class LlamaKVCache:
    """Unified KV cache: one flat byte tensor per layer for K and one for V."""

    def __init__(self, hparams, n_ctx: int, type_k: str, type_v: str, device="cuda"):
        self.n_ctx = n_ctx
        self.n_layer = hparams["n_layer"]
        self.n_embd_k_gqa = hparams["n_head_kv"] * hparams["n_embd_head_k"]
        self.n_embd_v_gqa = hparams["n_head_kv"] * hparams["n_embd_head_v"]
        self.type_k, self.type_v = type_k, type_v
        self.k_l, self.v_l = [], []
        for il in range(self.n_layer):
            self.k_l.append(torch.zeros(n_ctx * ggml_row_size(type_k, self.n_embd_k_gqa),
                                        dtype=torch.uint8, device=device))
            self.v_l.append(torch.zeros(n_ctx * ggml_row_size(type_v, self.n_embd_v_gqa),
                                        dtype=torch.uint8, device=device))
        self.head = 0
        self.used = 0

    def size_k_bytes(self):
        return sum(t.nbytes for t in self.k_l)

    def size_v_bytes(self):
        return sum(t.nbytes for t in self.v_l)

    def seq_rm(self, p0, p1):
        self.used -= max(0, min(p1, self.used) - p0)
