import torch

from .config import LatentShape


class LatentOffloadVault:
    """CPU offload tier for the latent cache, stacked [layers, tokens, 1, dim]."""

    def __init__(self, shape, dtype, layer_num, device):
        self.shape = shape
        self.size = shape.tokens
        self.dtype = dtype
        self.layer_num = layer_num
        self.kv_buffer = torch.empty(
            (layer_num,) + tuple(shape), dtype=dtype, device=device
        )

    @classmethod
    def from_config(cls, cfg):
        shape = LatentShape(tokens=cfg.offload_tokens, heads=1, dim=cfg.kv_lora_rank)
        return cls(shape, cfg.dtype, cfg.num_layers, cfg.offload_device)

    def store(self, layer_id, host_idx, latent):
        self.kv_buffer[layer_id, host_idx] = latent
