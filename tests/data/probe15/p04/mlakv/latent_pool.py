import torch


class LatentKVPool:
    """Compressed MLA cache: one latent row (kv_lora_rank + rope) per token per layer."""

    def __init__(self, n_layers: int, capacity: int, kv_lora_rank: int = 512,
                 qk_rope_head_dim: int = 64, dtype: torch.dtype = torch.bfloat16):
        self.n_layers = n_layers
        self.capacity = capacity
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.dtype = dtype
        self.latent = [
            torch.zeros((capacity, 1, kv_lora_rank + qk_rope_head_dim), dtype=dtype, device="cuda")
            for _ in range(n_layers)
        ]

    def get_latent(self, layer_id: int):
        return self.latent[layer_id]
