from dataclasses import dataclass

import torch

_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16,
           "fp8": torch.float8_e4m3fn}


@dataclass(frozen=True)
class KvLayout:
    """What a prefill worker advertises in its NIXL metadata blob."""
    num_layers: int
    num_blocks: int
    block_size: int
    num_heads: int
    k_head_dim: int
    v_head_dim: int
    dtype: torch.dtype

    @classmethod
    def for_prefill(cls, s) -> "KvLayout":
        m = s.model
        return cls(num_layers=m.num_layers,
                   num_blocks=s.prefill.num_blocks,
                   block_size=s.prefill.block_size,
                   num_heads=m.num_attention_heads // s.parallel.tp,
                   k_head_dim=m.qk_nope_head_dim + m.qk_rope_head_dim,
                   v_head_dim=m.v_head_dim,
                   dtype=_DTYPES[m.dtype])

    def block_bytes(self) -> tuple[int, int]:
        esz = torch.empty((), dtype=self.dtype).element_size()
        per_tok = self.num_heads * esz
        return (self.block_size * per_tok * self.k_head_dim,
                self.block_size * per_tok * self.v_head_dim)
