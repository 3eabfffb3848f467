import torch


class DecodeIndexerPool:
    def __init__(self, size, page_size, dtype, head_num, head_dim, layer_num, device):
        self.size = size
        self.page_size = page_size
        self.layer_num = layer_num
        self.index_k = [
            torch.zeros((size + page_size, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
        self.index_k_scale = [
            torch.zeros((size + page_size, 1), dtype=torch.float32, device=device)
            for _ in range(layer_num)
        ]
