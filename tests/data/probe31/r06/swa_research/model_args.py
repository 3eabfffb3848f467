from dataclasses import dataclass
from typing import Tuple

import torch


@dataclass(frozen=True)
class ModelArgs:
    dim: int = 1024
    n_layers: int = 6
    n_heads: int = 16
    n_kv_heads: int = 4
    head_dim: int = 64
    hidden_dim: int = 2816
    norm_eps: float = 1e-5
    vocab_size: int = 32000
    rope_theta: float = 10000.0
    sliding_window: int = 128
    global_every: int = 3
    max_seq_len: int = 512
    max_batch_size: int = 2
    dtype: torch.dtype = torch.bfloat16

    def layer_is_local(self, layer_id: int) -> bool:
        return (layer_id + 1) % self.global_every != 0

    def layer_capacities(self) -> Tuple[int, ...]:
        return tuple(
            min(self.sliding_window, self.max_seq_len) if self.layer_is_local(i) else self.max_seq_len
            for i in range(self.n_layers)
        )
