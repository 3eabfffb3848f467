import torch


class DecodeKVPool:
    def __init__(self, size, page_size, dtype, head_num, head_dim, layer_num, device):
        self.size = size
        self.page_size = page_size
        self.layer_num = layer_num
        if dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
            dtype = torch.float16  # BUG: fp8 received as 1 byte, stored as 2
        self.k_buffer = [
            torch.zeros((size + page_size, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
        self.v_buffer = [
            torch.zeros((size + page_size, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
