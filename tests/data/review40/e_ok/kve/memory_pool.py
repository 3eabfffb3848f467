import torch

from kve.arch import HybridArch


class HybridTokenToKVPool:
    def __init__(self, size: int, page_size: int, dtype: torch.dtype, arch: HybridArch, device: str):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.arch = arch
        num_layers = arch.num_hidden_layers + arch.num_swa_layers
        # full-attention layers first, then sliding-window layers, one list
        self.k_buffer = [
            torch.zeros((size + page_size, arch.num_kv_heads, arch.head_dim), dtype=dtype, device=device)
            for _ in range(num_layers)
        ]
        self.v_buffer = [
            torch.zeros((size + page_size, arch.num_kv_heads, arch.head_dim), dtype=dtype, device=device)
            for _ in range(num_layers)
        ]
