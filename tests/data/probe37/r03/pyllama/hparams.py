"""Model hyper-parameters and context parameters."""
from dataclasses import dataclass
from typing import Optional

from .ggml_types import GGMLType

QK_BLOCK = 32


@dataclass
class LlamaHParams:
    n_layer: int = 32
    n_embd: int = 4096
    n_head: int = 32
    n_head_kv: int = 8
    n_embd_head_k: Optional[int] = None
    n_embd_head_v: Optional[int] = None

    def __post_init__(self):
        if self.n_embd_head_k is None:
            self.n_embd_head_k = self.n_embd // self.n_head
        if self.n_embd_head_v is None:
            self.n_embd_head_v = self.n_embd_head_k
        for width in (self.n_embd_k_gqa(), self.n_embd_v_gqa()):
            if width <= 0 or width % QK_BLOCK:
                raise ValueError("KV row width must be a positive multiple of 32 (quantized caches)")

    def n_embd_k_gqa(self, il: int = 0) -> int:
        return self.n_embd_head_k * self.n_head_kv

    def n_embd_v_gqa(self, il: int = 0) -> int:
        return self.n_embd_head_v * self.n_head_kv


@dataclass
class LlamaContextParams:
    n_ctx: int = 4096
    n_batch: int = 2048
    type_k: GGMLType = GGMLType.F16
    type_v: GGMLType = GGMLType.F16
    flash_attn: bool = False
    offload_kqv: bool = True
