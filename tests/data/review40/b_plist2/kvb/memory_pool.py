import torch
from torch import nn


class MHATokenToKVPool(nn.Module):
    def __init__(self, size, page_size, dtype, head_num, head_dim, layer_num, device):
        super().__init__()
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.k_buffer = nn.ParameterList()
        for _ in range(layer_num):
            self.k_buffer.append(
                nn.Parameter(
                    torch.zeros((size + page_size, head_num, head_dim), dtype=dtype, device=device),
                    requires_grad=False,
                )
            )
        self.v_buffer = nn.ParameterList(
            torch.zeros((size + page_size, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        )
        self.scales = nn.ParameterDict(
            {f"layer_{i}": nn.Parameter(torch.ones(1), requires_grad=False) for i in range(layer_num)}
        )
