"""Per-block architecture description produced by the NAS search.

Each decoder block either keeps attention with its own number of KV heads
or has attention replaced by a linear layer (no KV cache at all).
"""

from dataclasses import dataclass
from typing import Optional, Tuple

import torch

# one entry per decoder block; "-" marks a block whose attention was removed
_SEARCHED_PATTERN = "8,8,8,4,8,-,8,2,8,8,4,-,8,8,1,8,8,8,-,4,8,8,2,8"


@dataclass(frozen=True)
class BlockSpec:
    n_kv_heads: Optional[int]

    @property
    def has_attention(self):
        return self.n_kv_heads is not None


@dataclass(frozen=True)
class NASDecoderArch:
    blocks: Tuple[BlockSpec, ...]
    head_dim: int = 128
    dtype: torch.dtype = torch.bfloat16

    @property
    def num_blocks(self):
        return len(self.blocks)

    def attention_blocks(self):
        return [i for i, b in enumerate(self.blocks) if b.has_attention]


def parse_pattern(pattern=_SEARCHED_PATTERN):
    out = []
    for tok in pattern.split(","):
        tok = tok.strip()
        out.append(BlockSpec(None if tok == "-" else int(tok)))
    return tuple(out)


def default_arch():
    return NASDecoderArch(blocks=parse_pattern())
