import torch


class QuantKVHostCache:
    def __init__(self, num_tokens, num_layers, num_heads, head_dim, device="cpu",
                 group_size=128, payload_dtype=torch.uint8, scale_dtype=torch.float32):
        self.num_tokens = num_tokens
        self.group_size = group_size
        groups = max(1, head_dim // group_size)
        self.k_data = torch.empty((num_layers, num_tokens, num_heads, head_dim), dtype=payload_dtype, device=device)
        self.v_data = torch.empty((num_layers, num_tokens, num_heads, head_dim), dtype=payload_dtype, device=device)
        self.k_scale = torch.empty((num_layers, num_tokens, num_heads, groups), dtype=scale_dtype, device=device)
        self.v_scale = torch.empty((num_layers, num_tokens, num_heads, groups), dtype=scale_dtype, device=device)
