import torch

from .gpu import LATENT_DIM, ROPE_DIM


class SparseMlaOffload:
    """The dense offload plus the indexer keys, row for row."""

    def __init__(self, gpu, gib=16, pin=False, device="cpu"):
        self.n_layers = gpu.n_layers
        row = gpu.index_dim + gpu.index_dim // gpu.index_block * 4
        row_bytes = (LATENT_DIM + ROPE_DIM) * torch.finfo(gpu.dtype).bits // 8 + row
        self.n_tokens = int(gib * (1 << 30)) // (row_bytes * gpu.n_layers)
        self.ckv = torch.empty((gpu.n_layers, self.n_tokens, LATENT_DIM + ROPE_DIM),
                               dtype=gpu.dtype, device=device, pin_memory=pin)
        self.idx_keys = torch.empty((gpu.n_layers, self.n_tokens, row),
                                    dtype=torch.uint8, device=device, pin_memory=pin)


class MlaOffload:
    def __init__(self, gpu, gib=16, pin=False, device="cpu"):
        self.n_layers = gpu.n_layers
        row_bytes = (LATENT_DIM + ROPE_DIM) * torch.finfo(gpu.dtype).bits // 8
        self.n_tokens = int(gib * (1 << 30)) // (row_bytes * gpu.n_layers)
        self.ckv = torch.empty((gpu.n_layers, self.n_tokens, LATENT_DIM + ROPE_DIM),
                               dtype=gpu.dtype, device=device, pin_memory=pin)

    def save(self, gpu, src, dst):
        self.ckv[:, dst] = gpu.ckv[:, src].cpu()

    def load(self, gpu, src, dst):
        gpu.ckv[:, dst] = self.ckv[:, src].to(gpu.device, non_blocking=True)
