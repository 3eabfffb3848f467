import torch


class KVCache:
    """Outside the audited tree (a serving library's base class)."""

    def __init__(self, size, dtype, layer_num):
        self.size = size
        self.dtype = dtype
        self.layer_num = layer_num
        if dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
            self.store_dtype = torch.uint8
        else:
            self.store_dtype = dtype
