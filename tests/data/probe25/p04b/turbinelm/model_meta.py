from dataclasses import dataclass

import torch


@dataclass
class ArchDims:
    num_layers: int = 28
    num_attention_heads: int = 16
    num_key_value_heads: int = 4
    k_head_dim: int = 192
    v_head_dim: int = 128
    dtype: torch.dtype = torch.bfloat16

    def local_kv_heads(self, tp: int) -> int:
        return max(1, self.num_key_value_heads // tp)
