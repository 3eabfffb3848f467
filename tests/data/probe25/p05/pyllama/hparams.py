from dataclasses import dataclass, field
from typing import List


def _openelm_kv_heads() -> List[int]:
    # per-layer KV head counts vary across depth (OpenELM-style layer-wise scaling)
    return [4 if il % 2 == 0 else 8 for il in range(24)]


@dataclass
class LlamaHParams:
    n_layer: int = 24
    n_head: int = 16
    n_head_kv_arr: List[int] = field(default_factory=_openelm_kv_heads)
    n_embd_head_k: int = 128
    n_embd_head_v: int = 128

    def n_head_kv(self, il: int) -> int:
        return self.n_head_kv_arr[il]

    def n_embd_k_gqa(self, il: int) -> int:
        return self.n_embd_head_k * self.n_head_kv(il)

    def n_embd_v_gqa(self, il: int) -> int:
        return self.n_embd_head_v * self.n_head_kv(il)
