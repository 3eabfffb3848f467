import torch
from mla.config import MLAConfig

class LatentKVPool:
    def __init__(self, config: MLAConfig, max_tokens: int):
        self.config = config
        self.kv_dim = config.kv_lora_rank + config.qk_rope_head_dim
        self.latent_buffer = [
            torch.zeros((max_tokens, 1, self.kv_dim), dtype=config.kv_cache_dtype, device="cuda")
            for _ in range(config.num_hidden_layers)
        ]
