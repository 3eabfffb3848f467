import torch

from .config import latent_shape


class LatentVault:
    """Device MLA cache: one [tokens + 1, 1, kv_lora_rank + rope] tensor per layer."""

    def __init__(self, shape, dtype, layer_num, device, rope_dim=64):
        self.shape = shape
        self.rope_dim = rope_dim
        self.size = shape.tokens - 1
        self.dtype = dtype
        self.layer_num = layer_num
        self.kv_buffer = [
            torch.empty(tuple(shape), dtype=dtype, device=device) for _ in range(layer_num)
        ]

    @classmethod
    def from_config(cls, cfg):
        return cls(
            latent_shape(cfg.max_tokens + 1, cfg),
            cfg.dtype,
            cfg.num_layers,
            cfg.device,
            rope_dim=cfg.qk_rope_head_dim,
        )

    def get_key_buffer(self, layer_id):
        return self.kv_buffer[layer_id]

    def get_value_buffer(self, layer_id):
        return self.kv_buffer[layer_id][..., : self.shape.dim - self.rope_dim]
