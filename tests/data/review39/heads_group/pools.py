import torch


class PrefillKVPool:
    def __init__(self, size, layer_num, model_cfg, dtype):
        head_dim = model_cfg.hidden_size // model_cfg.num_attention_heads
        kv_heads = model_cfg.num_kv_heads
        self.k_buffer = [torch.zeros((size, kv_heads, head_dim), dtype=dtype) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, kv_heads, head_dim), dtype=dtype) for _ in range(layer_num)]


class DecodeKVPool:
    def __init__(self, size, layer_num, width, num_heads, num_kv_heads, dtype):
        queries_per_kv = num_heads // num_kv_heads
        kv_width = width // queries_per_kv
        self.k_buffer = [torch.zeros((size, kv_width), dtype=dtype) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size, kv_width), dtype=dtype) for _ in range(layer_num)]
