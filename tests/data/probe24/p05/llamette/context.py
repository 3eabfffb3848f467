import os
from dataclasses import dataclass
from typing import Optional

from llamette.gguf_meta import DEFAULT_GGUF_METADATA, HParams
from llamette.kv_cache import KVCacheUnified
from llamette.state import SeqStateBuffer


@dataclass
class ContextParams:
    n_ctx: int = 8192
    n_seq_max: int = 4
    type_k: str = "q8_0"
    type_v: str = "f16"
    flash_attn: bool = False


class LlamaContext:
    def __init__(self, metadata: Optional[dict] = None, params: Optional[ContextParams] = None,
                 device: str = "cpu", state_device: str = "cpu") -> None:
        self.hparams = HParams(metadata or DEFAULT_GGUF_METADATA)
        self.params = params or ContextParams(
            n_ctx=int(os.environ.get("LLAMETTE_N_CTX", "8192")))
        p = self.params
        if p.type_v not in ("f16", "f32", "bf16") and not p.flash_attn:
            raise ValueError("quantized V cache requires flash_attn")
        self.kv_self = KVCacheUnified(self.hparams, p.n_ctx, p.type_k, p.type_v, device=device)
        # one slot's worth of cells for save/restore of a single sequence
        n_cells_per_seq = p.n_ctx // p.n_seq_max
        self.seq_state = SeqStateBuffer(self.hparams, n_cells_per_seq, p.type_k, p.type_v,
                                        device=state_device)
