from dataclasses import dataclass
from typing import Optional

from pyllama.ggml_types import GGMLType
from pyllama.hparams import LlamaHParams
from pyllama.kv_cells import CellRingCache
from pyllama.state_io import CellSnapshot


@dataclass
class ContextParams:
    n_ctx: int = 8192
    n_seq_max: int = 4
    type_k: str = "q8_0"
    type_v: str = "f16"
    kv_unified: bool = True


class LlamaishContext:
    def __init__(self, hparams: Optional[LlamaHParams] = None,
                 cparams: Optional[ContextParams] = None, device="cuda", host_device="cpu"):
        self.hparams = hparams or LlamaHParams()
        self.cparams = cparams or ContextParams()
        cp = self.cparams
        self.kv = CellRingCache(self.hparams, cp.n_ctx, GGMLType(cp.type_k), GGMLType(cp.type_v),
                                device=device)
        per_seq = cp.n_ctx if cp.kv_unified else cp.n_ctx // cp.n_seq_max
        self.snapshot = CellSnapshot(self.kv, per_seq, device=host_device)
