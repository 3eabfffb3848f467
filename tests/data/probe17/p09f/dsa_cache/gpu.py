import torch

LATENT_DIM = 512
ROPE_DIM = 64


class MlaKV:
    def __init__(self, n_layers, n_tokens, dtype=torch.bfloat16, device="cuda"):
        self.n_layers = n_layers
        self.n_tokens = n_tokens
        self.dtype = dtype
        self.device = device
        self.ckv = torch.empty((n_layers, n_tokens, LATENT_DIM + ROPE_DIM), dtype=dtype, device=device)
        self._extra_buffers()

    def _extra_buffers(self):
        pass


class SparseMlaKV(MlaKV):
    """MLA + lightning-indexer keys (fp8 payload followed by one fp32 scale per 128)."""

    index_dim = 128
    index_block = 128

    def _extra_buffers(self):
        row = self.index_dim + self.index_dim // self.index_block * 4
        self.idx_keys = torch.empty((self.n_layers, self.n_tokens, row), dtype=torch.uint8, device=self.device)
