import torch

from kvpkg.spec import KVSpec


class MHATokenToKVPool:
    def __init__(self, size: int, page_size: int, spec: KVSpec, device: str):
        self.size = size
        self.page_size = page_size
        self.spec = spec
        self.layer_num = spec.layer_num
        self.head_num = spec.head_num
        self.head_dim = spec.head_dim
        self.k_buffer = [
            torch.zeros((size + page_size, spec.head_num, spec.head_dim), dtype=spec.dtype, device=device)
            for _ in range(spec.layer_num)
        ]
        self.v_buffer = [
            torch.zeros((size + page_size, spec.head_num, spec.head_dim), dtype=spec.dtype, device=device)
            for _ in range(spec.layer_num)
        ]
