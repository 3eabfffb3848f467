from typing import List

import torch

from exl_forge.config import ModelConfig


class CacheQ:
    """Quantised K/V cache: packed ints plus one fp16 scale per group, per layer."""

    def __init__(self, config: ModelConfig, batch_size: int = 1, max_seq_len: int = None,
                 device: str = "cuda") -> None:
        self.config = config
        self.batch_size = batch_size
        self.max_seq_len = max_seq_len or config.max_seq_len
        self.num_layers = config.num_hidden_layers
        self.k_packed: List[torch.Tensor] = []
        self.v_packed: List[torch.Tensor] = []
        self.scales: List[torch.Tensor] = []
        for _ in range(self.num_layers):
            self.k_packed.append(torch.zeros(
                (batch_size, self.max_seq_len, config.packed_width), dtype=torch.uint8, device=device))
            self.v_packed.append(torch.zeros(
                (batch_size, self.max_seq_len, config.packed_width), dtype=torch.uint8, device=device))
            # [..., 0, :] key scales, [..., 1, :] value scales
            self.scales.append(torch.zeros(
                (batch_size, self.max_seq_len, 2, config.groups_per_token),
                dtype=torch.float16, device=device))

    @property
    def num_tokens(self) -> int:
        return self.batch_size * self.max_seq_len
