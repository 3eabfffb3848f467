import torch


class DecodePool:
    def __init__(self, prefill, num_tokens: int, device: str = "cuda"):
        layers = prefill.num_layers
        h, d = prefill.head_num, prefill.head_dim
        self.num_tokens = num_tokens
        self.k_cache = [torch.zeros((num_tokens, h, d), dtype=torch.uint8, device=device) for _ in range(layers)]
        self.v_cache = [torch.zeros((num_tokens, h, d), dtype=torch.uint8, device=device) for _ in range(layers)]
        self.k_scale = [torch.zeros((num_tokens, h), dtype=torch.float32, device=device) for _ in range(layers)]
