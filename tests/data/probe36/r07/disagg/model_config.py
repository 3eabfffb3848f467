from dataclasses import dataclass
from typing import Tuple

import torch


@dataclass
class TransformerConfig:
    # Qwen3-32B
    num_hidden_layers: int = 64
    hidden_size: int = 5120
    num_attention_heads: int = 64
    num_key_value_heads: int = 8
    head_dim: int = 128
    torch_dtype: torch.dtype = torch.bfloat16


@dataclass
class DeployConfig:
    tp_size: int = 4
    pp_size: int = 2
    pp_rank: int = 0
    block_size: int = 32
    decode_blocks: int = 12000
    prefill_blocks: int = 3000


def get_pp_indices(num_layers: int, pp_rank: int, pp_size: int) -> Tuple[int, int]:
    base, rem = divmod(num_layers, pp_size)
    sizes = [base + (1 if r < rem else 0) for r in range(pp_size)]
    start = sum(sizes[:pp_rank])
    return start, start + sizes[pp_rank]
