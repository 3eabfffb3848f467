"""Context initialisation (llama_init_from_model equivalent, KV part only)."""
from typing import Optional, Tuple

import torch

from .hparams import LlamaCParams, LlamaHParams
from .kv_cache import LlamaKVCache
from .state import KVStateBuffer


def init_context_kv(
    n_ctx: int = 4096,
    n_layer: int = 8,
    n_head_kv: int = 4,
    n_embd_head_k: int = 192,
    n_embd_head_v: int = 128,
    n_swa: int = 512,
    type_k: str = "f16",
    type_v: str = "f16",
    device="cuda",
    state_device: Optional[str] = None,
) -> Tuple[LlamaKVCache, KVStateBuffer]:
    hparams = LlamaHParams(
        n_layer=n_layer,
        n_head_kv=n_head_kv,
        n_embd_head_k=n_embd_head_k,
        n_embd_head_v=n_embd_head_v,
        n_swa=n_swa,
    )
    cparams = LlamaCParams(n_ctx=n_ctx, type_k=type_k, type_v=type_v)
    kv = LlamaKVCache(hparams, cparams, device=device)
    if state_device is None:
        state_device = "meta" if torch.device(device).type == "meta" else "cpu"
    state = KVStateBuffer(hparams, cparams, device=state_device)
    return kv, state
