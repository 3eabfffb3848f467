import torch

from .layout import INDEX_HEAD_DIM, QUANT_BLOCK, latent_width


class LatentMirror:
    """Host copy of LatentCache for hierarchical caching."""

    def __init__(self, dev, max_tokens, pin=False, device="cpu"):
        self.max_tokens = max_tokens
        self.n_layers = dev.n_layers
        lw = latent_width()
        # fp8 keys + fp16 scale per block
        iw = INDEX_HEAD_DIM + (INDEX_HEAD_DIM // QUANT_BLOCK) * 2
        self.latent = [
            torch.empty((max_tokens, 1, lw), dtype=dev.dtype, device=device, pin_memory=pin)
            for _ in range(self.n_layers)
        ]
        self.index_k = [
            torch.empty((max_tokens, iw), dtype=torch.uint8, device=device, pin_memory=pin)
            for _ in range(self.n_layers)
        ]
