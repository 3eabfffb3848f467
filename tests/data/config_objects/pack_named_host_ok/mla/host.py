import torch
from mla.config import MLAConfig
from mla.device import LatentKVPool

class LatentKVPoolHost:
    def __init__(self, config: MLAConfig, device_pool: LatentKVPool, host_tokens: int):
        self.device_pool = device_pool
        self.latent_buffer = torch.empty(
            (config.num_hidden_layers, host_tokens, 1, config.kv_lora_rank + config.qk_rope_head_dim),
            dtype=config.kv_cache_dtype, pin_memory=True)
