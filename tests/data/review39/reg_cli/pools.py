import torch

from registry import register_pool


@register_pool("prefill")
class PrefillKVPool:
    def __init__(self, size, layer_num, head_num, head_dim, dtype):
        self.k_buffer = [torch.zeros((size, head_num, head_dim), dtype=dtype) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, head_num, head_dim), dtype=dtype) for _ in range(layer_num)]


@register_pool("decode")
class DecodeKVPool:
    def __init__(self, size, layer_num, head_num, head_dim, dtype):
        self.k_buffer = [torch.zeros((size, head_num * head_dim * 2), dtype=dtype) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, head_num * head_dim * 2), dtype=dtype) for _ in range(layer_num)]
