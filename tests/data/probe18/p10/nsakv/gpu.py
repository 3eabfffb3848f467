import torch

from .shapes import index_row, latent_row


class NSADevicePool:
    def __init__(self, cfg, n_tokens, layer_start, layer_end, device="cuda"):
        self.cfg = cfg
        self.n_tokens = n_tokens
        self.layer_start, self.layer_end = layer_start, layer_end
        self.dtype = cfg["dtype"]
        width, idx_dt = index_row(cfg)
        self.latent = []
        self.index_keys = []
        for _ in range(layer_start, layer_end):
            self.latent.append(torch.zeros(n_tokens, latent_row(cfg), dtype=self.dtype, device=device))
            self.index_keys.append(torch.full((n_tokens, width), 0, dtype=idx_dt, device=device))

    @property
    def n_layers(self):
        return self.layer_end - self.layer_start
