"""Model hyper-parameters, named after llama_hparams."""
from dataclasses import dataclass

import torch

GGML_TYPE_TO_TORCH = {
    "f32": torch.float32,
    "f16": torch.float16,
    "bf16": torch.bfloat16,
}


@dataclass
class LlamaHParams:
    n_layer: int = 8
    n_embd: int = 2048
    n_head: int = 16
    n_head_kv: int = 4
    n_embd_head_k: int = 192
    n_embd_head_v: int = 128
    n_swa: int = 512
    # every n_swa_pattern-th layer (1-based) uses full attention, the rest sliding window
    n_swa_pattern: int = 2

    def n_embd_k_gqa(self, il: int = 0) -> int:
        return self.n_embd_head_k * self.n_head_kv

    def n_embd_v_gqa(self, il: int = 0) -> int:
        return self.n_embd_head_v * self.n_head_kv

    def is_swa(self, il: int) -> bool:
        if self.n_swa == 0 or self.n_swa_pattern == 0:
            return False
        return (il + 1) % self.n_swa_pattern != 0


@dataclass
class LlamaCParams:
    n_ctx: int = 4096
    n_seq_max: int = 1
    type_k: str = "f16"
    type_v: str = "f16"
    swa_full: bool = False


def layer_kv_size(hparams: LlamaHParams, cparams: LlamaCParams, il: int) -> int:
    """Number of KV cells allocated for layer ``il``."""
    if hparams.is_swa(il) and not cparams.swa_full:
        return min(cparams.n_ctx, hparams.n_swa * cparams.n_seq_max)
    return cparams.n_ctx
