import torch


class MHATokenToKVPool:
    def __init__(self, size, page_size, dtype, head_num, head_dim, layer_num, device):
        self.size = size
        self.page_size = page_size
        self.layer_num = layer_num
        self.k_buffer = [
            torch.zeros((size + page_size, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
        self.v_buffer = [
            torch.zeros((size + page_size, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]

    def buffer_names(self):
        return ["k_buffer", "v_buffer"]
