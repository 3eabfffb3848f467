import torch
from kv_format import KVCacheFormat, STORAGE_DTYPE, has_scales


class PrefillKVPool:
    def __init__(self, size: int, head_num: int, head_dim: int, layer_num: int,
                 fmt: KVCacheFormat, device: str = "cuda"):
        self.size = size
        self.dtype = STORAGE_DTYPE[fmt]
        self.kv_buffer = [
            torch.empty((2, size + 1, head_num, head_dim), dtype=self.dtype, device=device)
            for _ in range(layer_num)
        ]
        if has_scales(fmt):
            self.kv_scale = [
                torch.ones((2, size + 1, head_num), dtype=torch.float32, device=device)
                for _ in range(layer_num)
            ]


class DecodeKVPool:
    def __init__(self, size: int, head_num: int, head_dim: int, layer_num: int,
                 fmt: KVCacheFormat, device: str = "cuda"):
        self.size = size
        self.dtype = STORAGE_DTYPE[fmt]
        self.kv_buffer = [
            torch.empty((2, size + 1, head_num, head_dim), dtype=self.dtype, device=device)
            for _ in range(layer_num)
        ]
        if has_scales(fmt):
            # BUG: scales kept in bf16 here, fp32 on the prefill side
            self.kv_scale = [
                torch.ones((2, size + 1, head_num), dtype=torch.bfloat16, device=device)
                for _ in range(layer_num)
            ]


def make_decode_pool(size, head_num, head_dim, layer_num, fmt):
    return DecodeKVPool(size, head_num, head_dim, layer_num, fmt, device="cuda:1")
