"""Quantised KV cache: packed uint8 rows plus fp16 group scales."""
from dataclasses import dataclass
from typing import List

import torch

from .qtypes import named_dtype, packed_width


@dataclass
class QCacheSettings:
    num_hidden_layers: int = 32
    num_key_value_heads: int = 8
    head_dim: int = 128
    max_seq_len: int = 4096
    mode: str = "q4"
    group_size: int = 32
    scale_dtype: str = "fp16"


class QuantizedKVCache:
    def __init__(self, settings: QCacheSettings, batch_size: int = 1, device="cpu"):
        self.settings = settings
        self.batch_size = batch_size
        self.max_seq_len = settings.max_seq_len
        self.num_kv_heads = settings.num_key_value_heads
        self.head_dim = settings.head_dim
        self.groups = settings.head_dim // settings.group_size
        self.device = device

        data_shape = (batch_size, self.max_seq_len, self.num_kv_heads,
                      packed_width(self.head_dim, settings.mode))
        scale_shape = (batch_size, self.max_seq_len, self.num_kv_heads, self.groups)
        sdt = named_dtype(settings.scale_dtype)

        self.key_states: List[torch.Tensor] = []
        self.value_states: List[torch.Tensor] = []
        self.key_scales: List[torch.Tensor] = []
        self.value_scales: List[torch.Tensor] = []
        for _ in range(settings.num_hidden_layers):
            self.key_states.append(torch.zeros(data_shape, dtype=torch.uint8, device=device))
            self.value_states.append(torch.zeros(data_shape, dtype=torch.uint8, device=device))
            self.key_scales.append(torch.zeros(scale_shape, dtype=sdt, device=device))
            self.value_scales.append(torch.zeros(scale_shape, dtype=sdt, device=device))

    def num_slots(self) -> int:
        return self.batch_size * self.max_seq_len

    def quantize_into(self, layer: int, batch_idx: int, pos: int,
                      k: torch.Tensor, v: torch.Tensor) -> None:
        """k, v: (seq, heads, head_dim) fp16 -> packed q4 + group scales."""
        for src, data, scales in ((k, self.key_states, self.key_scales),
                                  (v, self.value_states, self.value_scales)):
            q, s = quantize_q4(src, self.settings.group_size)
            n = src.shape[0]
            data[layer][batch_idx, pos:pos + n] = q
            scales[layer][batch_idx, pos:pos + n] = s.to(scales[layer].dtype)

    def dequantize(self, layer: int, batch_idx: int, length: int):
        g = self.settings.group_size
        k = dequantize_q4(self.key_states[layer][batch_idx, :length],
                          self.key_scales[layer][batch_idx, :length], g)
        v = dequantize_q4(self.value_states[layer][batch_idx, :length],
                          self.value_scales[layer][batch_idx, :length], g)
        return k, v


def quantize_q4(x: torch.Tensor, group_size: int):
    *lead, d = x.shape
    g = x.float().reshape(*lead, d // group_size, group_size)
    scale = g.abs().amax(dim=-1).clamp(min=1e-6) / 7.0
    q = (g / scale.unsqueeze(-1)).round().clamp(-8, 7).to(torch.int16) + 8
    q = q.reshape(*lead, d).to(torch.uint8)
    packed = q[..., 0::2] | (q[..., 1::2] << 4)
    return packed, scale


def dequantize_q4(packed: torch.Tensor, scale: torch.Tensor, group_size: int) -> torch.Tensor:
    lo = (packed & 0x0F).to(torch.int16) - 8
    hi = (packed >> 4).to(torch.int16) - 8
    q = torch.stack([lo, hi], dim=-1).flatten(-2)
    *lead, d = q.shape
    g = q.reshape(*lead, d // group_size, group_size).float() * scale.float().unsqueeze(-1)
    return g.reshape(*lead, d).half()
