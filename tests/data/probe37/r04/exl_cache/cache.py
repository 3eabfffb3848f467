"""Device cache classes. Each layer gets tensors shaped [batch, seq, kv_heads, width]."""
from typing import List

import torch

from .config import ExConfig


class ExCacheBase:
    """Shared logic for all cache variants; subclasses pick storage dtype and widths."""

    storage_dtype = torch.half

    def __init__(self, config: ExConfig, batch_size: int = 1, max_seq_len: int = -1,
                 device: str = "cuda"):
        self.config = config
        self.batch_size = batch_size
        self.max_seq_len = max_seq_len if max_seq_len != -1 else config.max_seq_len
        self.num_key_value_heads = config.num_key_value_heads
        self.head_dim = config.head_dim
        self.current_seq_len = 0
        self.key_states: List[torch.Tensor] = []
        self.value_states: List[torch.Tensor] = []
        self.key_scales: List[torch.Tensor] = []
        self.value_scales: List[torch.Tensor] = []
        for _ in range(config.num_hidden_layers):
            self.create_layer(device)

    def data_width(self) -> int:
        return self.head_dim

    def create_layer(self, device) -> None:
        shape = (self.batch_size, self.max_seq_len, self.num_key_value_heads, self.data_width())
        self.key_states.append(torch.zeros(shape, dtype=self.storage_dtype, device=device))
        self.value_states.append(torch.zeros(shape, dtype=self.storage_dtype, device=device))

    @property
    def token_capacity(self) -> int:
        return self.batch_size * self.max_seq_len

    def get_kv_state(self, layer_idx: int, batch_size: int, offset: int, width: int):
        k = self.key_states[layer_idx][:batch_size, offset:offset + width]
        v = self.value_states[layer_idx][:batch_size, offset:offset + width]
        return k, v

    def reset(self) -> None:
        self.current_seq_len = 0


class ExLlamaCache(ExCacheBase):
    """Plain FP16 cache."""


class ExLlamaCache_8bit(ExCacheBase):
    """FP8 (E4M3) cache; bit patterns stored as uint8."""

    storage_dtype = torch.uint8


class ExLlamaCache_Q(ExCacheBase):
    """Group-quantized cache: packed codes plus one fp16 scale per channel group."""

    storage_dtype = torch.uint8
    bits = 4
    q_group_size = 64

    def data_width(self) -> int:
        return self.head_dim * self.bits // 8

    def scale_width(self) -> int:
        return self.head_dim // self.q_group_size

    def create_layer(self, device) -> None:
        super().create_layer(device)
        shape = (self.batch_size, self.max_seq_len, self.num_key_value_heads, self.scale_width())
        self.key_scales.append(torch.zeros(shape, dtype=torch.half, device=device))
        self.value_scales.append(torch.zeros(shape, dtype=torch.half, device=device))


class ExLlamaCache_Q4(ExLlamaCache_Q):
    bits = 4


class ExLlamaCache_Q6(ExLlamaCache_Q):
    bits = 6


class ExLlamaCache_Q8(ExLlamaCache_Q):
    bits = 8
