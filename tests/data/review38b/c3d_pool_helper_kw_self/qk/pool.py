import torch

from .fp8_view import Fp8KernelCache


class MHATokenPool:
    def __init__(self, size, head_num, head_dim, layer_num, dtype, device, fp8_attention=True):
        self.size = size
        self.k_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        # part of this pool's own storage: an fp8 copy the attention kernel reads
        self.fp8 = Fp8KernelCache(pool=self) if fp8_attention else None
