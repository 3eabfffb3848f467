from dataclasses import dataclass

from .kv_cache import LlamaKVCache
from .state import LlamaStateBuffer

DEFAULT_HPARAMS = {
    "n_layer": 26,
    "n_head": 32,
    "n_head_kv": 8,
    "n_embd_head_k": 128,
    "n_embd_head_v": 128,
}


@dataclass
class LlamaContextParams:
    n_ctx: int = 8192
    n_batch: int = 512
    type_k: str = "q8_0"
    type_v: str = "f16"
    n_state_cells: int = 4096
    offload_kqv: bool = True


def llama_new_context(hparams=None, params: LlamaContextParams = None,
                      device="cpu", state_device="cpu"):
    hparams = dict(DEFAULT_HPARAMS if hparams is None else hparams)
    params = params or LlamaContextParams()
    kv_device = device if params.offload_kqv else "cpu"
    kv = LlamaKVCache(hparams, params.n_ctx, type_k=params.type_k, type_v=params.type_v,
                      device=kv_device)
    state = LlamaStateBuffer(hparams, params.n_state_cells, params.type_k, params.type_v,
                             device=state_device)
    return kv, state
