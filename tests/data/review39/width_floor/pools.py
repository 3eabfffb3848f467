import torch


class PrefillKVPool:
    """Per-head layout: [tokens, heads, head_dim] per layer."""

    def __init__(self, size, layer_num, model_cfg, dtype):
        num_heads = model_cfg.num_attention_heads
        head_dim = model_cfg.hidden_size // num_heads
        self.k_buffer = [torch.zeros((size, num_heads, head_dim), dtype=dtype) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, num_heads, head_dim), dtype=dtype) for _ in range(layer_num)]


class DecodeKVPool:
    """Flat layout: [tokens, hidden] per layer."""

    def __init__(self, size, layer_num, width, dtype):
        self.k_buffer = [torch.zeros((size, width), dtype=dtype) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, width), dtype=dtype) for _ in range(layer_num)]
