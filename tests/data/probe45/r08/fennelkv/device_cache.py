import torch


class QuantKVDeviceCache:
    def __init__(self, num_tokens, num_layers, num_heads, head_dim, quant, device):
        assert head_dim % quant.group_size == 0
        self.num_tokens = num_tokens
        self.group_size = quant.group_size
        groups = head_dim // quant.group_size
        self.k_data, self.v_data, self.k_scale, self.v_scale = [], [], [], []
        for _ in range(num_layers):
            self.k_data.append(torch.empty((num_tokens, num_heads, head_dim), dtype=quant.payload_dtype, device=device))
            self.v_data.append(torch.empty((num_tokens, num_heads, head_dim), dtype=quant.payload_dtype, device=device))
            self.k_scale.append(torch.empty((num_tokens, num_heads, groups), dtype=quant.scale_dtype, device=device))
            self.v_scale.append(torch.empty((num_tokens, num_heads, groups), dtype=quant.scale_dtype, device=device))
