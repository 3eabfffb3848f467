"""Cache storage modes and the shape helpers shared by the cache classes."""

from enum import Enum

import torch


class CacheMode(Enum):
    FP16 = "fp16"
    Q8 = "q8"
    Q6 = "q6"
    Q4 = "q4"

    @property
    def bits(self):
        return {"fp16": 16, "q8": 8, "q6": 6, "q4": 4}[self.value]

    @property
    def storage_dtype(self):
        return torch.float16 if self is CacheMode.FP16 else torch.uint8

    @property
    def quantized(self):
        return self is not CacheMode.FP16


def state_shape(cfg, batch_size, max_seq_len, mode):
    """Shape of one layer's key (or value) states; quantized modes pack bits into bytes."""
    width = cfg.num_key_value_heads * cfg.head_dim
    if mode.quantized:
        width = width * mode.bits // 8
    return (batch_size, max_seq_len, width)


def scale_shape(cfg, batch_size, max_seq_len, group_size=64):
    """Shape of one layer's fp16 scales, K and V groups interleaved on the last axis."""
    groups = cfg.num_key_value_heads * cfg.head_dim // group_size
    return (batch_size, max_seq_len, 2 * groups)
