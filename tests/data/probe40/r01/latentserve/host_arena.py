"""Pinned host arena mirroring the device latent cache, token-major."""
import torch

from .layout import LatentLayout


class LatentOffloadArena:
    def __init__(self, layout: LatentLayout, num_tokens: int, pin_memory: bool = True):
        self.layout = layout
        self.num_tokens = num_tokens
        self.token_bytes = layout.bytes_per_token()
        self.raw = torch.empty(
            num_tokens * self.token_bytes,
            dtype=torch.uint8,
            device="cpu",
            pin_memory=pin_memory,
        )
        # token-major so that one evicted token range is a single contiguous copy
        self.latent = self.raw.view(layout.dtype).view(
            num_tokens, layout.num_layers, 1, layout.token_width
        )

    def backup_from(self, pool, host_idx: torch.Tensor, dev_idx: torch.Tensor):
        for layer_id in range(self.layout.num_layers):
            self.latent[host_idx, layer_id] = pool.layer(layer_id)[dev_idx].to("cpu", non_blocking=True)

    def restore_into(self, pool, host_idx: torch.Tensor, dev_idx: torch.Tensor):
        for layer_id in range(self.layout.num_layers):
            pool.layer(layer_id)[dev_idx] = self.latent[host_idx, layer_id].to(
                pool.latent.device, non_blocking=True
            )
